// Redeploys: a changed mcp-tool-in announces notifications/tools/list_changed to connected clients
// (2025 sessions over their GET stream, 2026-07-28 over subscriptions/listen), and a changed
// endpoint path takes the old route away (404) instead of leaving it served.
import { until } from '../helpers/wait';
import assert from 'node:assert/strict';
import { helper, setFlows } from '../helpers/runtime';
import { baseUrl, connect, disconnect, loadFlow, startEndpointRuntime, stopEndpointRuntime, type FlowNode } from './harness';

const TOKEN = 'redeploy-token';
const flowWith = (toolName: string, path = '/mcp'): FlowNode[] => [
  { id: 'tab1', type: 'tab', label: 'tools' },
  { id: 'ep', type: 'mcp-endpoint', path },
  { id: 'in-a', type: 'mcp-tool-in', z: 'tab1', endpoint: 'ep', name: toolName, wires: [['out']] },
  { id: 'out', type: 'mcp-tool-out', z: 'tab1' },
];
const credentials = { ep: { tokens: TOKEN } };

async function redeploy(flow: FlowNode[], type: 'nodes' | 'full'): Promise<void> {
  await setFlows(flow as any, type, credentials as any);
}

const waitFor = (predicate: () => boolean, what: string, ms = 5000) => until(what, predicate, ms);

describe('mcp-endpoint on redeploy', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() => loadFlow(flowWith('first').slice(1), credentials));

  it('2025 session: a redeployed tool-in sends one tools/list_changed and the list shows the new tool', async () => {
    const c = await connect('/mcp', '2025-11-25', TOKEN);
    try {
      let changed = 0;
      c.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      assert.deepEqual(
        (await c.client.listTools()).tools.map((t) => t.name),
        ['first'],
      );
      await new Promise((r) => setTimeout(r, 200)); // the GET stream the notification travels on
      await redeploy(flowWith('second'), 'nodes');
      await waitFor(() => changed > 0, 'tools/list_changed');
      assert.deepEqual(
        (await c.client.listTools()).tools.map((t) => t.name),
        ['second'],
      );
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(changed, 1, 'one announcement per deploy, not one per node');
    } finally {
      await disconnect(c);
    }
  });

  it('2026-07-28: a subscriptions/listen stream hears tools/list_changed on redeploy', async () => {
    const c = await connect('/mcp', '2026-07-28', TOKEN);
    try {
      let changed = 0;
      c.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
      const subscription = await c.client.listen({ toolsListChanged: true });
      assert.equal(subscription.honoredFilter.toolsListChanged, true);
      await redeploy(flowWith('second'), 'nodes');
      await waitFor(() => changed > 0, 'tools/list_changed');
      assert.deepEqual(
        (await c.client.listTools()).tools.map((t) => t.name),
        ['second'],
      );
      await subscription.close();
    } finally {
      await disconnect(c);
    }
  });

  it('a changed path removes the old route (404) and serves the new one', async () => {
    await redeploy(flowWith('first', '/tools'), 'full');
    const post = (path: string) =>
      fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    assert.equal((await post('/mcp')).status, 404);
    assert.equal((await post('/tools')).status, 401, 'the new route exists and asks for a token');
    const c = await connect('/tools', '2026-07-28', TOKEN);
    assert.deepEqual(
      (await c.client.listTools()).tools.map((t) => t.name),
      ['first'],
    );
    await disconnect(c);
  });

  it('a second endpoint on a path already served says so on its users and in the log, and the first keeps the path', async () => {
    const flow: FlowNode[] = [
      ...flowWith('first'),
      { id: 'ep2', type: 'mcp-endpoint', name: 'second', path: '/mcp/' },
      { id: 'in-b', type: 'mcp-tool-in', z: 'tab1', endpoint: 'ep2', name: 'second-tool', wires: [['out']] },
    ];
    await loadFlow(flow, credentials);
    // The helper records every status a node set (a sinon spy): the last is what the editor shows.
    const shown = (helper.getNode('in-b') as any).status.args.map((a: any[]) => a[0]?.text);
    assert.match(shown[shown.length - 1], /^\/mcp is taken by another endpoint$/);
    const logged = (helper.log().args as any[][]).map((a) => String(a[0]?.msg ?? ''));
    assert.ok(
      logged.some((m) => /path \/mcp is already served by \/mcp \(ep\)/.test(m)),
      `the log names the endpoint that has the path:\n${logged.filter((m) => /served/.test(m)).join('\n')}`,
    );
    const c = await connect('/mcp', '2026-07-28', TOKEN);
    assert.deepEqual(
      (await c.client.listTools()).tools.map((t) => t.name),
      ['first'],
      'the first endpoint still serves the path',
    );
    await disconnect(c);
  });

  it('a removed endpoint leaves no route behind', async () => {
    await redeploy([{ id: 'tab1', type: 'tab', label: 'tools' }], 'full');
    const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 404);
  });
});
