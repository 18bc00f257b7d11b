// The endpoint's bounds that need no flood to show: 2025-revision sessions are capped (the least
// recently used one goes first) and expire when idle; set_property writes exactly the key it read,
// whatever characters the key holds. Real runtime, real SDK clients over HTTP.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpEndpoint } from '../../src/server/endpoint';
import { HttpServing } from '../../src/server/http-endpoint';
import { helper } from '../helpers/runtime';
import { clientOptions, connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, textOf } from '../server/harness';

const TOKEN = 'limits-token-51d0';

async function servingOn(options: { maxSessions: number; sessionIdleMs: number }): Promise<{ url: string; serving: HttpServing; server: Server }> {
  const endpoint = new McpEndpoint({ name: 'limits', version: '1.0.0' });
  const serving = new HttpServing(endpoint, { tokens: [TOKEN], anonymous: false, allowedHosts: ['127.0.0.1', 'localhost'], ...options });
  const server = createServer(serving.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, serving, server };
}

async function legacyClient(url: string): Promise<Client> {
  const client = new Client({ name: 'limits-test', version: '1' }, { capabilities: {}, ...clientOptions('2025-11-25') });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  return client;
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

  it('keeps at most maxSessions: 30 clients that never DELETE leave 5, the least recently used closed first', async () => {
    target = await servingOn({ maxSessions: 5, sessionIdleMs: 60_000 });
    for (let i = 0; i < 30; i++) {
      clients.push(await legacyClient(target.url));
      // The first client stays in use, so it is never the least recently used one.
      await clients[0].listTools();
    }
    assert.equal(target.serving.sessionCount, 5);
    assert.deepEqual((await clients[0].listTools()).tools, [], 'the session in use survived');
    await assert.rejects(clients[1].listTools(), /Session not found|404/, 'an old idle session is gone');
    assert.deepEqual((await clients[29].listTools()).tools, [], 'the newest session is served');
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
