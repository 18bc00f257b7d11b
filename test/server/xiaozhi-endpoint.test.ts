// The endpoint's outbound link to xiaozhi's MCP endpoint, against a fake xiaozhi service: our side
// dials out, serves MCP on the socket (string ids echoed exactly), reconnects after a drop with
// backoff, reports a bad token without logging it, and closes on redeploy.
import assert from 'node:assert/strict';
import { Server } from '@modelcontextprotocol/server';
import { XiaozhiLink } from '../../src/server/xiaozhi-link';
import { helper } from '../helpers/runtime';
import { startFakeXiaozhiEndpoint, type FakeXiaozhiEndpoint, type XiaozhiConnection } from '../peers/fake-xiaozhi-endpoint';
import { loadFlow, startEndpointRuntime, stopEndpointRuntime, type FlowNode } from './harness';
import { toolFlow } from './tool-flow';

const XIAOZHI_TOKEN = 'xz-secret-eyJhbGciOi';

async function handshake(c: XiaozhiConnection): Promise<any> {
  const init = await c.request('initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'xiaozhi-mcp-endpoint', version: '1.0' } });
  c.notify('notifications/initialized');
  return init;
}

describe("mcp-endpoint over xiaozhi's MCP endpoint (outbound WebSocket)", function () {
  this.timeout(30000);
  let fake: FakeXiaozhiEndpoint;
  before(async () => {
    await startEndpointRuntime();
    fake = await startFakeXiaozhiEndpoint(XIAOZHI_TOKEN);
  });
  after(async () => {
    await stopEndpointRuntime();
    await fake.close();
  });

  const flow = (): FlowNode[] => toolFlow();
  const load = (token: string) => loadFlow(flow(), { ep: { tokens: 'http-token', xiaozhiEndpoint: fake.url(token) } });

  it('dials out and serves the flow tools as MCP server: string ids echoed exactly, calls reach the flow', async () => {
    const connected = fake.nextConnection();
    await load(XIAOZHI_TOKEN);
    const c = await connected;
    const init = await handshake(c);
    assert.equal(init.serverInfo.name, 'test-endpoint');
    assert.ok(init.capabilities.tools, 'offers tools');
    const { tools } = await c.request('tools/list');
    assert.deepEqual(tools.map((t: { name: string }) => t.name).sort(), ['boom', 'echo', 'hang', 'never', 'slow']);
    const results = await Promise.all(['a', 'b', 'c'].map((text) => c.request('tools/call', { name: 'echo', arguments: { text } })));
    assert.deepEqual(
      results.map((r) => r.content[0].text),
      ['a', 'b', 'c'].map((t) => `echo: ${t} from xiaozhi-mcp-endpoint`),
    );
  });

  it('reconnects after the service drops the connection, and serves again', async () => {
    const first = fake.nextConnection();
    await load(XIAOZHI_TOKEN);
    const c1 = await first;
    await handshake(c1);
    const again = fake.nextConnection();
    c1.drop();
    const c2 = await again;
    await handshake(c2);
    const result = await c2.request('tools/call', { name: 'echo', arguments: { text: 'back' } });
    assert.equal(result.content[0].text, 'echo: back from xiaozhi-mcp-endpoint');
  });

  it('a wrong token is refused by the service; the warning says what to check and never shows the token', async () => {
    const refusedBefore = fake.refusedTokens;
    await load('wrong-token-value');
    const spy = helper.log(); // a fresh spy per loaded flow: this flow's log only
    for (let i = 0; i < 100 && fake.refusedTokens === refusedBefore; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const lines = spy.args.map((a: any[]) => JSON.stringify(a[0]));
    const warning = lines.find((l: string) => l.includes('xiaozhi MCP endpoint disconnected'));
    assert.ok(warning, `no warning among:\n${lines.join('\n')}`);
    assert.match(warning!, /HTTP 401: check the token/);
    assert.ok(!lines.some((l: string) => l.includes('wrong-token-value') || l.includes(XIAOZHI_TOKEN)), 'no token in any log line');
  });

  it('closes the link on redeploy and does not dial again', async () => {
    const connected = fake.nextConnection();
    await load(XIAOZHI_TOKEN);
    const c = await connected;
    const before = fake.connections;
    await helper.unload();
    await c.closed;
    await new Promise((r) => setTimeout(r, 1500)); // longer than the first retry delay
    assert.equal(fake.connections, before);
  });

  it('backs off exponentially up to the maximum while the service refuses', async () => {
    const delays: number[] = [];
    const link = new XiaozhiLink(fake.url('nope'), () => new Server({ name: 'x', version: '1' }, { capabilities: { tools: {} } }), {
      initialDelayMs: 5,
      maxDelayMs: 40,
      onRetry: (d) => delays.push(d),
    });
    link.start();
    for (let i = 0; i < 200 && delays.length < 6; i++) await new Promise((r) => setTimeout(r, 20));
    await link.close();
    assert.deepEqual(delays.slice(0, 6), [5, 10, 20, 40, 40, 40]);
  });
});
