// A server's state reaches the nodes that use it without waiting for a call: from deploy on, when
// the server goes away, and when it comes back. Real runtime, Home Assistant stand-in that is
// stopped and started again on the same port; the waits are liveness bounds, not timings.
import assert from 'node:assert/strict';
import { fromRuntime, helper, load, startRuntime, stopRuntime } from '../helpers/runtime';
import { until } from '../helpers/wait';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';

const statusNode = require(fromRuntime('@node-red/nodes/core/common/25-status.js'));
/** The last status each watched node showed, as a status node reports it. */
const latest = new Map<string, string>();
const last = (id: string) => latest.get(id) ?? '';

describe("a server's state reaches its nodes without a call (real runtime)", function () {
  this.timeout(90_000);
  let ha: HomeAssistantStandIn;
  before(startRuntime);
  after(async () => {
    await ha?.close();
    await stopRuntime();
  });
  afterEach(() => helper.unload());

  it('deploy: ready with its tool count; the server gone: red on every user; back: ready again, with no call made', async () => {
    ha = await startHomeAssistant();
    const port = Number(new URL(ha.url).port);
    await load(
      [
        { id: 'ha', type: 'mcp-server', name: 'Home Assistant', transport: 'http', url: ha.url, timeout: 5 },
        { id: 'call', type: 'mcp-call-tool', server: 'ha', wires: [[], []] },
        { id: 'list', type: 'mcp-list-tools', server: 'ha', wires: [[]] },
        { id: 'watch', type: 'status', scope: ['call', 'list'], wires: [['statuses']] },
        { id: 'statuses', type: 'helper' },
      ],
      { ha: { token: ha.token } },
      [statusNode],
    );
    helper.getNode('statuses').on('input', (m: any) => latest.set(m.status.source.id, String(m.status.text ?? '')));
    await until('both nodes show the tools from deploy on', () => /19 tools/.test(last('call')) && /19 tools/.test(last('list')), 20_000);
    const calls = () => ha.requests.filter((r) => r.rpcMethod === 'tools/call').length;
    assert.equal(calls(), 0);
    await ha.close();
    await until(
      'both nodes turn red once the server is gone',
      () => /refused|cut|disconnected|HTTP|host/.test(last('call')) && /refused|cut|disconnected|HTTP|host/.test(last('list')),
      30_000,
    );
    ha = await startHomeAssistant({ port });
    await until('both nodes are ready again once it is back', () => /19 tools/.test(last('call')) && /19 tools/.test(last('list')), 30_000);
    assert.equal(calls(), 0, 'no tool was called to find out');
  });
});
