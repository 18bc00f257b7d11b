// The endpoint's bounds that need no flood to show: 2025-revision sessions are capped per client
// (its own least recently used goes first) and in all (a newcomer gets 429, nobody is pushed out),
// and expire when idle; set_property writes exactly the key it read,
// whatever characters the key holds. Real runtime, real SDK clients over HTTP.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpEndpoint } from '../../src/server/endpoint';
import { HttpServing } from '../../src/server/http-endpoint';
import { helper } from '../helpers/runtime';
import { baseUrl, clientOptions, connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, textOf } from '../server/harness';

const TOKEN = 'limits-token-51d0';
const VICTIM = 'victim-token-77c2';
const THIRD = 'third-token-9e41';

type Limits = { maxSessions: number; sessionIdleMs: number; sessionsPerClient?: number };

async function servingOn(options: Limits): Promise<{ url: string; serving: HttpServing; server: Server }> {
  const endpoint = new McpEndpoint({ name: 'limits', version: '1.0.0' });
  const serving = new HttpServing(endpoint, { tokens: [TOKEN, VICTIM, THIRD], anonymous: false, allowedHosts: ['127.0.0.1', 'localhost'], ...options });
  const server = createServer(serving.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, serving, server };
}

async function legacyClient(url: string, token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'limits-test', version: '1' }, { capabilities: {}, ...clientOptions('2025-11-25') });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** A bare 2025 initialize, to read the status and headers a refused client gets. */
function initialize(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
}

describe('security: mcp-endpoint sessions are bounded', function () {
  this.timeout(30_000);
  let target: Awaited<ReturnType<typeof servingOn>>;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await target.serving.close();
    target.server.closeAllConnections();
    await new Promise((r) => target.server.close(r));
  });

  it('keeps at most sessionsPerClient for one token: 30 clients that never DELETE leave 5, its own least recently used closed first', async () => {
    target = await servingOn({ maxSessions: 100, sessionsPerClient: 5, sessionIdleMs: 60_000 });
    for (let i = 0; i < 30; i++) {
      clients.push(await legacyClient(target.url));
      // Each session makes its first call (a session not used yet is never evicted); the first
      // client stays in use, so it is never the least recently used one.
      await clients[i].listTools();
      await clients[0].listTools();
    }
    assert.equal(target.serving.sessionCount, 5);
    assert.deepEqual((await clients[0].listTools()).tools, [], 'the session in use survived');
    await assert.rejects(clients[1].listTools(), /Session not found|404/, 'an old idle session is gone');
    assert.deepEqual((await clients[29].listTools()).tools, [], 'the newest session is served');
  });

  it("one token opening 60 sessions never closes another token's idle session, nor its own new ones: past its share it gets 429 with Retry-After", async () => {
    target = await servingOn({ maxSessions: 20, sessionsPerClient: 5, sessionIdleMs: 60_000 });
    const victim = await legacyClient(target.url, VICTIM);
    clients.push(victim);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await initialize(target.url, TOKEN);
      statuses.push(res.status);
      if (res.status === 429) assert.equal(res.headers.get('retry-after'), '1');
      await res.body?.cancel();
    }
    assert.deepEqual(statuses, [...Array(5).fill(200), ...Array(55).fill(429)]);
    assert.equal(target.serving.sessionCount, 6, 'the flooding token holds its share (5), the victim its one');
    assert.deepEqual((await victim.listTools()).tools, [], 'the idle victim is still served');
  });

  it('200 stock SDK clients sharing one token, started together, all make their call: a session younger than its first use is never evicted', async () => {
    target = await servingOn({ maxSessions: 400, sessionsPerClient: 50, sessionIdleMs: 60_000 });
    // Each client initializes, then calls; a 429 (its share is full of sessions not used yet) is retried after Retry-After, as a client may.
    const one = async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          const client = await legacyClient(target.url);
          clients.push(client);
          await client.listTools();
          return 'ok';
        } catch (err) {
          if (!/429/.test(String(err)) || attempt > 50) return String(err);
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    };
    const outcomes = await Promise.all(Array.from({ length: 200 }, one));
    assert.deepEqual(
      outcomes.filter((o) => o !== 'ok'),
      [],
    );
  });

  it('a full endpoint answers a newcomer 429 with Retry-After and keeps everyone it serves', async () => {
    target = await servingOn({ maxSessions: 4, sessionsPerClient: 2, sessionIdleMs: 45_000 });
    for (const token of [TOKEN, TOKEN, VICTIM, VICTIM]) clients.push(await legacyClient(target.url, token));
    const refused = await initialize(target.url, THIRD);
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 45, `Retry-After ${refused.headers.get('retry-after')}`);
    assert.match(((await refused.json()) as { error: { message: string } }).error.message, /most sessions.*retry in \d+ s/);
    for (const client of clients) assert.deepEqual((await client.listTools()).tools, [], 'every served session still answers');
    // A client that closes its session makes room for the newcomer.
    await (clients.shift()!.transport as StreamableHTTPClientTransport).terminateSession();
    clients.push(await legacyClient(target.url, THIRD));
    assert.equal(target.serving.sessionCount, 4);
  });

  it('a JSON-RPC batch of more than 10 messages is refused (400) and none of it is answered', async () => {
    target = await servingOn({ maxSessions: 100, sessionIdleMs: 60_000 });
    const init = await initialize(target.url, TOKEN);
    const session = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    };
    const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 10, method: 'tools/list' })));
    const refused = await fetch(target.url, { method: 'POST', headers, body: batch(100) });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /a batch of 100 messages; this endpoint takes at most 10/);
    const small = await fetch(target.url, { method: 'POST', headers, body: batch(3) });
    assert.equal(small.status, 200);
    assert.equal((await small.text()).match(/"tools":\[\]/g)?.length, 3, 'a small batch is answered in full');
  });

  it('closes a session idle for longer than sessionIdleMs', async () => {
    target = await servingOn({ maxSessions: 100, sessionIdleMs: 300 });
    const idle = await legacyClient(target.url);
    clients.push(idle);
    await new Promise((r) => setTimeout(r, 500));
    await assert.rejects(idle.listTools(), /Session not found|404/);
    clients.push(await legacyClient(target.url)); // a new initialize sweeps what expired
    assert.equal(target.serving.sessionCount, 1);
  });
});

describe('security: set_property writes the key it read', function () {
  this.timeout(30_000);
  let c: Awaited<ReturnType<typeof connect>>;
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  afterEach(async () => c && (await disconnect(c)));

  const global = () => (helper.getNode('ep') as any).context().global;

  for (const key of ['back\\slash', 'a.b', 'x"]["y', "it's", '[0]']) {
    it(`a key written ${JSON.stringify(key)} is changed in place, and no other key appears`, async () => {
      await loadFlow([{ id: 'ep', type: 'mcp-endpoint', path: '/mcp', roots: 'global.home', writable: '/home/**' }], { ep: { tokens: TOKEN } });
      global().set('home', { weird: { [key]: 5, other: 1 } });
      c = await connect('/mcp', '2026-07-28', TOKEN);
      const result = await c.client.callTool({ name: 'set_property', arguments: { path: `/home/weird/${key}`, value: 6 } });
      assert.equal(result.isError, undefined, textOf(result));
      assert.deepEqual(result.structuredContent, { success: true, previousValue: 5 });
      assert.deepEqual(global().get('home'), { weird: { [key]: 6, other: 1 } });
      const read = await c.client.callTool({ name: 'get_property', arguments: { path: `/home/weird/${key}` } });
      assert.equal((read.structuredContent as any).value, 6);
    });
  }
});

describe("security: the mcp-endpoint node's session settings", function () {
  this.timeout(30_000);
  const open: Array<Awaited<ReturnType<typeof connect>>> = [];
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  afterEach(async () => void (await Promise.allSettled(open.splice(0).map(disconnect))));

  it('Sessions and per client set on the node bound 2025 sessions in a deployed flow', async () => {
    await loadFlow([{ id: 'ep', type: 'mcp-endpoint', path: '/bounded', maxSessions: '2', sessionsPerClient: '1' }], {
      ep: { tokens: `${TOKEN}\n${VICTIM}\n${THIRD}` },
    });
    open.push(await connect('/bounded', '2025-11-25', TOKEN));
    await open[0].client.listTools(); // in use: from now on it may make room for the same client's next one
    const replaced = await connect('/bounded', '2025-11-25', TOKEN); // the same client again: its first session goes
    open.push(replaced);
    await assert.rejects(open[0].client.listTools(), /Session not found|404/);
    open.push(await connect('/bounded', '2025-11-25', VICTIM));
    const refused = await initialize(new URL('/bounded', baseUrl).href, THIRD);
    assert.equal(refused.status, 429);
    assert.deepEqual((await replaced.client.listTools()).tools, []);
  });
});
