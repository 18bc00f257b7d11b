// Other clients of the endpoint: our own mcp-server / mcp-call-tool nodes in the same runtime
// (Node-RED calling its own URL), and a client that behaves as Home Assistant's does.
import assert from 'node:assert/strict';
import { helper, mcpNodes, nextMessage, send } from '../helpers/runtime';
import { toolFlow } from './tool-flow';
import { haLikeRequest, type HaLikeTrace } from './ha-like-client';
import { baseUrl, loadFlow, startEndpointRuntime, stopEndpointRuntime, type FlowNode } from './harness';

const TOKEN = 'own-token';

describe('mcp-endpoint called by other clients', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  it('our own mcp-server + mcp-call-tool nodes call the endpoint in the same runtime', async () => {
    const flow: FlowNode[] = [
      ...toolFlow(),
      { id: 'srv', type: 'mcp-server', transport: 'http', url: `${baseUrl}/mcp` },
      { id: 'caller', type: 'mcp-call-tool', server: 'srv', tool: 'echo', wires: [['result'], []] },
      { id: 'result', type: 'helper' },
      { id: 'lister', type: 'mcp-list-tools', server: 'srv', wires: [['listed']] },
      { id: 'listed', type: 'helper' },
    ];
    await loadFlow(flow, { ep: { tokens: TOKEN }, srv: { token: TOKEN } }, mcpNodes);
    const listed = nextMessage('listed');
    send('lister', { payload: {} });
    assert.deepEqual(((await listed).payload as Array<{ name: string }>).map((t) => t.name).sort(), ['boom', 'echo', 'hang', 'never', 'slow']);
    const got = nextMessage('result');
    send('caller', { payload: { text: 'from myself' } });
    const msg = await got;
    assert.equal(msg.payload, 'echo: from myself from node-red-contrib-mcp-gemini');
  });

  describe('a Home Assistant-like client (new connection per call, 10 s timeout, no token field)', () => {
    const haFlow = (endpoint: Record<string, unknown>): FlowNode[] => [
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp-ha', ...endpoint },
      {
        id: 'in-light',
        type: 'mcp-tool-in',
        endpoint: 'ep',
        name: 'kitchen_light',
        inputSchema: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
        wires: [['light-fn']],
      },
      {
        id: 'light-fn',
        type: 'function',
        func: 'flow.set("light", msg.payload.on); msg.payload = "kitchen light " + (msg.payload.on ? "on" : "off"); return msg;',
        wires: [['out']],
      },
      { id: 'out', type: 'mcp-tool-out' },
    ];

    it('lists and calls tools on an anonymous endpoint, one full session per request, none left open', async () => {
      await loadFlow(haFlow({ anonymous: true }));
      const url = `${baseUrl}/mcp-ha`;
      const trace: HaLikeTrace = { methods: [] };
      const listed = await haLikeRequest(url, 'tools/list', {}, trace);
      assert.deepEqual(
        listed.tools.map((t: { name: string }) => t.name),
        ['kitchen_light'],
      );
      for (const on of [true, false, true]) {
        const result = await haLikeRequest(url, 'tools/call', { name: 'kitchen_light', arguments: { on } }, trace);
        assert.equal(result.content[0].text, `kitchen light ${on ? 'on' : 'off'}`);
      }
      assert.deepEqual(
        trace.methods.filter((m) => m.startsWith('DELETE')),
        ['DELETE 200', 'DELETE 200', 'DELETE 200', 'DELETE 200'],
      );
      assert.equal((helper.getNode('light-fn') as any).context().flow.get('light'), true);
    });

    it('gets 401 from an endpoint with tokens (HA has no token field: use an anonymous endpoint)', async () => {
      await loadFlow(haFlow({}), { ep: { tokens: TOKEN } });
      await assert.rejects(haLikeRequest(`${baseUrl}/mcp-ha`, 'tools/list', {}), /HTTP 401 Bearer/);
    });
  });
});
