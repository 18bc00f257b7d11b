// A deploy keeps connected clients: a "Full" deploy (the editor's default) stops and starts every
// node, the endpoint included. An endpoint whose settings did not change hands its sessions and
// listeners to the node that starts in its place, so a 2025 client keeps its session (no 404, no
// new initialize) and both revisions hear one list_changed per list that changed, and none when
// nothing did. A changed endpoint (another token) closes its sessions; stopping the flows without a
// deploy closes everything.
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import { postAs } from '../helpers/bearer-requests';
import { helper, setFlows } from '../helpers/runtime';
import { baseUrl, connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, type FlowNode } from './harness';

const TOKEN = 'kept-token';
const flowWith = (tools: string[], prompt?: string): FlowNode[] => [
  { id: 'tab1', type: 'tab', label: 'tools' },
  { id: 'ep', type: 'mcp-endpoint', path: '/mcp' },
  ...tools.map((name, i) => ({ id: `in-${i}`, type: 'mcp-tool-in', z: 'tab1', endpoint: 'ep', name, wires: [['out']] })),
  { id: 'out', type: 'mcp-tool-out', z: 'tab1' },
  ...(prompt ? [{ id: 'p-in', type: 'mcp-prompt-in', z: 'tab1', endpoint: 'ep', name: prompt, wires: [[]] }] : []),
];
const full = (flow: FlowNode[], token = TOKEN) => setFlows(flow as any, 'full', { ep: { tokens: token } } as any);
const quiet = () => new Promise((r) => setTimeout(r, 400)); // longer than the registry's 250 ms burst

describe('mcp-endpoint: a Full deploy keeps connected clients', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() => loadFlow(flowWith(['first']).slice(1), { ep: { tokens: TOKEN } }, [require('../../nodes/mcp-prompt-in/index.ts')]));

  it('2025 session: the same session works after each deploy; list_changed only for the list that changed', async () => {
    const c = await connect('/mcp', '2025-11-25', TOKEN);
    try {
      const heard: string[] = [];
      c.client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
      c.client.setNotificationHandler('notifications/prompts/list_changed', () => void heard.push('prompts'));
      const session = c.transport.sessionId;
      assert.deepEqual(
        (await c.client.listTools()).tools.map((t) => t.name),
        ['first'],
      );
      await quiet(); // the GET stream the notifications travel on

      await full(flowWith(['first']));
      await quiet();
      assert.deepEqual(
        (await c.client.listTools()).tools.map((t) => t.name),
        ['first'],
        'the session survived the deploy',
      );
      assert.equal(c.transport.sessionId, session);
      assert.deepEqual(heard, [], 'nothing changed, nothing announced');

      await full(flowWith(['first', 'second']));
      await until('tools/list_changed', () => heard.length > 0, 5000);
      await quiet();
      assert.deepEqual(heard, ['tools'], 'one announcement, for the tools only');
      assert.deepEqual(
        (await c.client.listTools()).tools.map((t) => t.name),
        ['first', 'second'],
      );
      assert.equal(c.transport.sessionId, session);
    } finally {
      await disconnect(c);
    }
  });

  it('2026-07-28: a listen stream stays open across the deploy and hears one list_changed per changed list', async () => {
    const c = await connect('/mcp', '2026-07-28', TOKEN);
    try {
      const heard: string[] = [];
      c.client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
      c.client.setNotificationHandler('notifications/prompts/list_changed', () => void heard.push('prompts'));
      await c.client.listen({ toolsListChanged: true, promptsListChanged: true });
      await full(flowWith(['first']));
      await quiet();
      assert.deepEqual(heard, []);
      await full(flowWith(['first'], 'summary'));
      await until('prompts/list_changed', () => heard.length > 0, 5000);
      await quiet();
      assert.deepEqual(heard, ['prompts']);
    } finally {
      await disconnect(c);
    }
  });

  it('a changed endpoint (another token) ends the old sessions; stopped flows end them too', async () => {
    const c = await connect('/mcp', '2025-11-25', TOKEN);
    const session = c.transport.sessionId!;
    const list = { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} };
    try {
      await full(flowWith(['first']), 'new-token');
      assert.equal((await postAs(`${baseUrl}/mcp`, 'new-token', list, session)).status, 404, 'the session went with the old settings');
    } finally {
      await c.client.close();
    }
    const d = await connect('/mcp', '2025-11-25', 'new-token');
    const kept = d.transport.sessionId!;
    await helper.unload(); // flows stopped, not deployed
    await loadFlow(flowWith(['first']).slice(1), { ep: { tokens: 'new-token' } });
    const again = await postAs(`${baseUrl}/mcp`, 'new-token', list, kept);
    assert.equal(again.status, 404);
    await d.client.close();
  });
});
