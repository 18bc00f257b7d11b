// The README tells Home Assistant add-on users (who have no process environment) to set HA_URL,
// HA_TOKEN and the Gemini key as Environment Variables of the tab. A tab's variables reach only the
// nodes on that tab, config nodes included when they live on it: an example whose config nodes sat
// on "all flows" ignored them and still dialled homeassistant.local. Every example that reads
// HA_URL is deployed alone into a real Node-RED, with no such variable in the process environment
// and HA_URL/HA_TOKEN set on its tab, and its Home Assistant server lists the stand-in's tools.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { EXAMPLES_DIR, readExample, startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';

const readsHaUrl = readdirSync(EXAMPLES_DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.replace(/\.json$/, ''))
  .filter((name) => JSON.stringify(readExample(name)).includes('${HA_URL'));

/** The example as a user leaves it after following the README: the variables on its tab. */
function withTabVariables(flow: FlowNode[], vars: Record<string, string>): FlowNode[] {
  return flow.map((n) =>
    n.type === 'tab'
      ? {
          ...n,
          env: [
            ...((n.env as Array<{ name: string }>) ?? []).filter((e) => !(e.name in vars)),
            ...Object.entries(vars).map(([name, value]) => ({ name, value, type: 'str' })),
          ],
        }
      : n,
  );
}

describe('examples: the tab variables the README names are used (real Node-RED)', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let ha: HomeAssistantStandIn;
  before(async () => {
    ha = await startHomeAssistant();
    nr = await startNodeRed({ env: { HA_URL: '', HA_TOKEN: '' } });
  });
  after(async () => {
    await nr?.stop();
    await ha?.close();
  });

  it('at least the Home Assistant examples read HA_URL', () => assert.ok(readsHaUrl.length >= 7, readsHaUrl.join(', ')));

  for (const name of readsHaUrl) {
    it(`${name}: HA_URL and HA_TOKEN on the tab reach its Home Assistant server`, async () => {
      const flow = withTabVariables(readExample(name), { HA_URL: new URL(ha.url).origin, HA_TOKEN: ha.token });
      await nr.deploy(flow);
      const servers = flow.filter((n) => n.type === 'mcp-server' && JSON.stringify(n).includes('${HA_URL'));
      assert.ok(servers.length > 0);
      for (const server of servers) {
        assert.ok(server.z, `${server.name} lives on the example's tab, where its variables are`);
        let res = await nr.request('GET', `/mcp-server/${server.id}/tools`);
        for (let i = 0; res.status === 404 && i < 50; i++) {
          await new Promise((r) => setTimeout(r, 100)); // the runtime is still starting the new nodes
          res = await nr.request('GET', `/mcp-server/${server.id}/tools`);
        }
        assert.equal(res.status, 200, `${server.name}: ${res.text}`);
        assert.ok(res.body.tools.length > 0, `${server.name} listed the stand-in's tools`);
      }
    });
  }
});
