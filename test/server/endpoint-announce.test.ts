// "Announce to Home Assistant" inside the Home Assistant app: against a Supervisor stand-in built
// from the fixture notes (POST /discovery with the app's token, DELETE on withdrawal, 403 for an app
// whose config does not list "mcp"). The real runtime deploys the endpoint with SUPERVISOR_TOKEN set
// and the stand-in as its proxy for the host name `supervisor`.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { captureLogs, helper, setEnv, until } from '../helpers/runtime';
import { loadFlow, startEndpointRuntime, stopEndpointRuntime } from './harness';
import { startHomeAssistant, type HomeAssistantStandIn } from '../peers/home-assistant';
import { startSupervisor, type SupervisorStandIn } from '../peers/home-assistant/supervisor';

const TOKEN = 'supervisor-token-7f3a';

describe('mcp-endpoint: announced to Home Assistant through the Supervisor (inside its app)', function () {
  this.timeout(30000);
  let ha: HomeAssistantStandIn;
  before(async () => {
    await startEndpointRuntime();
    ha = await startHomeAssistant();
  });
  after(async () => {
    await stopEndpointRuntime();
    await ha.close();
  });

  async function deployWith(supervisor: SupervisorStandIn): Promise<() => void> {
    const restore = setEnv({ SUPERVISOR_TOKEN: TOKEN, HTTP_PROXY: supervisor.proxyUrl, http_proxy: supervisor.proxyUrl, NO_PROXY: '' });
    await loadFlow([{ id: 'ep', type: 'mcp-endpoint', path: '/mcp', announce: true, signIn: true }]);
    return restore;
  }

  it('posts the endpoint URL as service "mcp" and withdraws it when the endpoint closes', async () => {
    const supervisor = await startSupervisor({ token: TOKEN, haUrl: ha.url, haToken: ha.token, discovery: ['mcp'] });
    const restore = await deployWith(supervisor);
    try {
      await until('an announcement', () => supervisor.discoveries.size === 1, 10000);
      const [[uuid, announced]] = [...supervisor.discoveries];
      assert.equal(announced.service, 'mcp');
      assert.match(String(announced.config.url), new RegExp(`^http://${hostname().replace(/[.]/g, '\\.')}:\\d+/mcp$`));
      await helper.unload();
      await until('the withdrawal', () => supervisor.withdrawn.includes(uuid), 10000);
      assert.equal(supervisor.discoveries.size, 0);
      assert.deepEqual(supervisor.refused, []);
    } finally {
      restore();
      await supervisor.close();
    }
  });

  it('an app whose config does not list "mcp" is refused: said once, with the URL to add by hand', async () => {
    const supervisor = await startSupervisor({ token: TOKEN, haUrl: ha.url, haToken: ha.token });
    const restore = await deployWith(supervisor);
    const logs = captureLogs(); // the runtime's log spy exists once a flow is loaded
    try {
      await until('the refusal said', () => logs.lines().some((l) => l.includes('refused to announce')), 10000);
      const said = logs
        .lines()
        .map((l) => String(JSON.parse(l).msg))
        .filter((m) => m.includes('refused to announce'));
      assert.equal(said.length, 1);
      assert.match(said[0], /does not list "mcp" under "discovery:"/);
      assert.match(said[0], /by hand/);
      assert.match(said[0], /http:\/\/[^ ]+\/mcp/);
      assert.equal(supervisor.discoveries.size, 0);
      assert.ok(!said[0].includes(TOKEN), 'the token is never said');
    } finally {
      restore();
      await supervisor.close();
    }
  });
});
