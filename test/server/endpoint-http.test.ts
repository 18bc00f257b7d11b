// mcp-endpoint + mcp-tool-in/out over Streamable HTTP, called by the real @modelcontextprotocol/client
// in both eras: 2026-07-28 (stateless) and 2025-11-25 (sessions).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { helper } from '../helpers/runtime';
import { baseUrl, connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, textOf, type Era } from './harness';
import { echoSchema, toolFlow } from './tool-flow';
import { endpointSettings } from '../../src/server/settings';
import { postAs } from '../helpers/bearer-requests';

const TOKEN = 'tok-3f9a1c';
describe('mcp-endpoint over Streamable HTTP', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() => loadFlow(toolFlow(), { ep: { tokens: `other\n${TOKEN}` } }));

  it('answers 401 with a Bearer WWW-Authenticate challenge without a valid token, and nothing reaches a flow', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    for (const auth of [undefined, 'Bearer wrong', `Basic ${Buffer.from('a:b').toString('base64')}`]) {
      const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: auth ? { ...headers, authorization: auth } : headers, body });
      assert.equal(res.status, 401, `auth ${auth}`);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
      const text = await res.text();
      assert.ok(!text.includes(TOKEN));
      // A JSON body a person can act on, for clients that show only a message (and OAuth's fields for those that read them).
      const answer = JSON.parse(text);
      assert.equal(answer.error, 'invalid_token');
      assert.equal(answer.message, answer.error_description);
      assert.match(
        answer.message,
        auth === 'Bearer wrong'
          ? /not one of this endpoint's tokens; copy a token from the mcp-endpoint node/
          : /needs a bearer token: send 'Authorization: Bearer <token>'/,
      );
      // Where the token is: the examples keep it in their tab's environment variables.
      assert.match(answer.message, /the tab's MCP_TOKEN/);
    }
    await assert.rejects(connect('/mcp', '2026-07-28'), /401|nauthorized/);
  });

  it('a 2025 session answers only the token that created it: another token can neither use nor delete it (404)', async () => {
    const post = (token: string, message: unknown, session?: string) => postAs(`${baseUrl}/mcp`, token, message, session, '2025-06-18');
    const init = await post(TOKEN, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'owner', version: '1' } },
    });
    const session = init.headers.get('mcp-session-id')!;
    assert.ok(session, 'a 2025 session');
    await init.text();
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };
    const stranger = await post('other', list, session);
    assert.equal(stranger.status, 404);
    const deleted = await fetch(`${baseUrl}/mcp`, { method: 'DELETE', headers: { authorization: 'Bearer other', 'mcp-session-id': session } });
    assert.equal(deleted.status, 404);
    const owner = await post(TOKEN, list, session);
    assert.equal(owner.status, 200, 'the owner still has it');
    assert.match(await owner.text(), /"tools"/);
  });

  it('refuses a foreign Origin (DNS rebinding) with 403, and accepts a proxy host name when a token is given', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: {} });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` };
    const foreign = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
    assert.equal(foreign.status, 403);
    const viaProxy = await new Promise<number>((resolve, reject) => {
      const req = require('node:http').request(`${baseUrl}/mcp`, { method: 'POST', headers: { ...headers, host: 'nodered.example.org' } }, (res: any) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        }),
      );
    });
    assert.equal(viaProxy, 200);
  });

  it('behind a load balancer: with Instance set, every 2025 session id starts with "<instance>."; a name a balancer cannot match is a configuration error', async () => {
    await loadFlow(
      toolFlow().map((n) => (n.type === 'mcp-endpoint' ? { ...n, instance: 'nr-2' } : n)),
      { ep: { tokens: TOKEN } },
    );
    const sessions = await Promise.all([connect('/mcp', '2025-11-25', TOKEN), connect('/mcp', '2025-11-25', TOKEN)]);
    for (const c of sessions) assert.match(c.transport.sessionId ?? '', /^nr-2\.[0-9a-f-]{36}$/);
    assert.equal(textOf(await sessions[0].client.callTool({ name: 'echo', arguments: { text: 'hi' } })).includes('hi'), true);
    await Promise.all(sessions.map(disconnect));
    assert.deepEqual(endpointSettings({ instance: ' b ' }).instance, 'b');
    assert.throws(() => endpointSettings({ instance: 'a.b' }), /letters, digits, - and _ only/);
    assert.throws(() => endpointSettings({ instance: 'x'.repeat(33) }), /at most 32/);
  });

  for (const era of ['2026-07-28', '2025-11-25'] as Era[]) {
    describe(`protocol ${era}`, () => {
      it('lists the flow tools with their schema, annotations and the server info', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          assert.equal(c.client.getNegotiatedProtocolVersion(), era);
          assert.equal(c.client.getServerVersion()?.name, 'test-endpoint');
          assert.equal(c.client.getInstructions(), 'Flows as tools.');
          const { tools } = await c.client.listTools();
          assert.deepEqual(tools.map((t) => t.name).sort(), ['boom', 'echo', 'hang', 'never', 'slow']);
          const echo = tools.find((t) => t.name === 'echo')!;
          assert.deepEqual(echo.inputSchema, echoSchema);
          assert.deepEqual(echo.annotations, { readOnlyHint: true });
          assert.equal(echo.description, 'Echoes text.');
        } finally {
          await disconnect(c);
        }
      });

      it('calls a flow tool: arguments in msg.payload, the answer from mcp-tool-out', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const result = await c.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
          assert.equal(textOf(result), 'echo: hi from endpoint-test');
          assert.notEqual(result.isError, true);
        } finally {
          await disconnect(c);
        }
      });

      it('refuses invalid arguments with a tool error before any flow runs', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const result = await c.client.callTool({ name: 'echo', arguments: { text: 5 } });
          assert.equal(result.isError, true);
          assert.match(textOf(result), /Invalid arguments for echo: text: must be string/);
        } finally {
          await disconnect(c);
        }
      });

      it('gives each of 16 concurrent calls its own answer', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const texts = Array.from({ length: 16 }, (_, i) => `call-${i}`);
          const results = await Promise.all(texts.map((text) => c.client.callTool({ name: 'echo', arguments: { text } })));
          assert.deepEqual(
            results.map(textOf),
            texts.map((t) => `echo: ${t} from endpoint-test`),
          );
        } finally {
          await disconnect(c);
        }
      });

      it('relays progress from mcp-tool-out (topic "progress") and then the structured result', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const progress: unknown[] = [];
          const result = await c.client.callTool({ name: 'slow', arguments: {} }, { onprogress: (p) => progress.push(p) });
          assert.deepEqual(progress, [{ progress: 1, total: 2, message: 'half way' }]);
          assert.deepEqual(result.structuredContent, { done: true, steps: 2 });
          assert.deepEqual(JSON.parse(textOf(result)), { done: true, steps: 2 });
        } finally {
          await disconnect(c);
        }
      });

      it('answers an error result naming the tool when no flow answers within its timeout (1 s)', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const started = Date.now();
          const result = await c.client.callTool({ name: 'never', arguments: {} });
          assert.equal(result.isError, true);
          assert.match(textOf(result), /No flow answered the call of never within 1 s/);
          assert.ok(Date.now() - started >= 900, 'not before the configured timeout');
        } finally {
          await disconnect(c);
        }
      });

      it('turns an error caught in the flow (Catch → mcp-tool-out) into an isError result naming the node', async () => {
        const c = await connect('/mcp', era, TOKEN);
        try {
          const result = await c.client.callTool({ name: 'boom', arguments: {} });
          assert.equal(result.isError, true);
          assert.equal(textOf(result), 'Error in node "thermostat driver" (function boom-fn): Error: sensor offline');
        } finally {
          await disconnect(c);
        }
      });

      it('releases a call the client cancels; a late answer is only a warning', async () => {
        const c = await connect('/mcp', era, TOKEN);
        const endpoint = (helper.getNode('ep') as any).endpoint;
        try {
          const arrived = new Promise<any>((resolve) => helper.getNode('hang-spy').once('input', resolve));
          const controller = new AbortController();
          const call = c.client.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal });
          const msg = await arrived;
          assert.equal(endpoint.pending.size, 1);
          assert.equal(msg.mcp.tool, 'hang');
          assert.equal(typeof msg._mcp.handle, 'string');
          controller.abort(new Error('user gave up'));
          await assert.rejects(call);
          for (let i = 0; i < 50 && endpoint.pending.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
          assert.equal(endpoint.pending.size, 0, 'the cancelled call no longer waits');
          const warn = new Promise<string>((resolve) => {
            const out = helper.getNode('out') as any;
            const original = out.warn.bind(out);
            out.warn = (m: string) => {
              out.warn = original;
              resolve(m);
            };
          });
          helper.getNode('out').receive({ ...msg, payload: 'too late' });
          assert.match(await warn, /no longer waiting/);
        } finally {
          await disconnect(c);
        }
      });
    });
  }
});

describe("mcp-endpoint's serverInfo", function () {
  this.timeout(30_000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  it("announces the package's own version from package.json", async () => {
    await loadFlow([{ id: 'ep', type: 'mcp-endpoint', path: '/mcp', anonymous: true }]);
    const c = await connect('/mcp', '2025-11-25');
    try {
      const version = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')).version;
      assert.equal(c.client.getServerVersion()?.version, version);
    } finally {
      await disconnect(c);
    }
  });
});
