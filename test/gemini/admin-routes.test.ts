// POST /gemini-agent/test, the route behind the gemini-agent dialog's Test button, through
// helper.request() against the real runtime, the fake Gemini and the Home Assistant stand-in: the
// dialog's unsaved settings run one prompt in auto mode with the deployed mcp-server nodes, the
// answer carries the text and the calls, and the API key never comes back (not even when Gemini
// echoes it in an error).
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import assert from 'node:assert/strict';
import { setEnv } from '../helpers/runtime';
import type { HomeAssistantStandIn } from '../peers/home-assistant';
import { reply } from '../peers/fake-gemini';
import { freePort } from '../peers/free-port';
import { API_KEY, helper, loadAgent, type FakeGemini, type ServerDef, haServer, useAgentPeers } from './harness';

// Once per Home Assistant generation; the filters stay written with the pre-2026.9 names.
for (const generation of HA_GENERATIONS) describeRoutes(generation);

function describeRoutes(generation: HaGeneration) {
  describe(`gemini-agent admin routes: POST /gemini-agent/test and /gemini-agent/tools (Home Assistant ${generation})`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    this.timeout(30000);
    let fake: FakeGemini;
    let ha: HomeAssistantStandIn;
    let server: ServerDef;

    const peers = useAgentPeers({ generation });
    beforeEach(async () => {
      ({ fake, ha } = peers); // the names the tests below use
      server = haServer(ha);
      // The deployed flow: node "agent" with a stored key, and the HA server deployed.
      await loadAgent({ fake, servers: [server] });
    });

    /** What the dialog sends: its current fields, which may differ from the deployed node. */
    function dialog(overrides: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
      return {
        id: 'agent',
        prompt: 'Turn off the kitchen light',
        apiKey: '__PWRD__',
        config: {
          model: 'gemini-3.5-flash',
          baseUrl: fake.url,
          apiVersion: 'v1beta',
          servers: [{ server: 'ha', include: '', exclude: '', prefix: '' }],
          maxSteps: 5,
          functionCalling: 'AUTO',
          timeout: 30,
          ...config,
        },
        ...overrides,
      };
    }

    it('runs one prompt with the stored key and the deployed HA server, and returns the answer and the calls', async () => {
      fake.script(reply.call(n('HassTurnOff'), { name: 'Kitchen Light', domain: ['light'] }), reply.text('The kitchen light is off.'));
      const res = await helper.request().post('/gemini-agent/test').send(dialog()).expect(200);
      assert.equal(res.body.ok, true, res.body.error);
      assert.equal(res.body.text, 'The kitchen light is off.');
      assert.equal(res.body.model, 'gemini-3.5-flash');
      assert.deepEqual(res.body.steps, [
        { calls: [{ name: n('HassTurnOff'), server: 'Home Assistant', tool: n('HassTurnOff'), isError: false }] },
        { calls: [] },
      ]);
      assert.ok(res.body.usage.totalTokenCount > 0);
      // The tool really ran on the server, and Gemini got the stored key.
      const calls = ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params);
      assert.deepEqual(calls, [{ name: n('HassTurnOff'), arguments: { name: 'Kitchen Light', domain: ['light'] } }]);
      assert.equal(fake.requests[0].headers['x-goog-api-key'], API_KEY);
      assert.doesNotMatch(JSON.stringify(res.body), new RegExp(API_KEY));
    });

    it('uses the unsaved settings: model, system instruction and the per-server include filter', async () => {
      fake.script(reply.text('ok'));
      const res = await helper
        .request()
        .post('/gemini-agent/test')
        .send(
          dialog(
            { prompt: 'hi' },
            {
              model: 'gemini-3.8-flash',
              systemInstruction: 'Be brief.',
              servers: [{ server: 'ha', include: 'HassTurn*', exclude: 'HassTurnOff', prefix: 'home_' }],
            },
          ),
        )
        .expect(200);
      assert.equal(res.body.ok, true, res.body.error);
      const request = fake.requests[0];
      assert.equal(request.model, 'gemini-3.8-flash');
      assert.deepEqual(request.body.systemInstruction.parts, [{ text: 'Be brief.' }]);
      const names = request.body.tools[0].functionDeclarations.map((d: any) => d.name);
      assert.deepEqual(names, [`home_${n('HassTurnOn')}`]);
    });

    it('a typed key is used as is and never comes back, also when Gemini refuses it', async () => {
      const typed = 'AIzaSy-typed-wrong-key-5f3e2d1c';
      const res = await helper
        .request()
        .post('/gemini-agent/test')
        .send(dialog({ apiKey: typed }))
        .expect(200);
      assert.equal(res.body.ok, false);
      // The fake answers this only to a key that reached it and is not the stored one.
      assert.match(res.body.error, /API key not valid/);
      assert.doesNotMatch(JSON.stringify(res.body), /typed-wrong-key/);
    });

    it('a Gemini error that echoes the stored key comes back scrubbed', async () => {
      fake.script(reply.error(400, 'INVALID_ARGUMENT', `Request with key ${API_KEY} has an invalid model`));
      const res = await helper.request().post('/gemini-agent/test').send(dialog()).expect(200);
      assert.equal(res.body.ok, false);
      assert.match(res.body.error, /400/);
      assert.match(res.body.error, /invalid model/);
      assert.doesNotMatch(JSON.stringify(res.body), new RegExp(API_KEY));
    });

    it('without a typed or stored key falls back to GEMINI_API_KEY, and says so when there is none', async () => {
      const none = await helper
        .request()
        .post('/gemini-agent/test')
        .send(dialog({ id: 'new-agent', apiKey: '' }))
        .expect(200);
      assert.equal(none.body.ok, false);
      assert.match(none.body.error, /GEMINI_API_KEY/);
      assert.equal(fake.requests.length, 0);
      const restore = setEnv({ GEMINI_API_KEY: API_KEY });
      fake.script(reply.text('from env'));
      let env;
      try {
        env = await helper
          .request()
          .post('/gemini-agent/test')
          .send(dialog({ id: 'new-agent', apiKey: '' }))
          .expect(200);
      } finally {
        restore();
      }
      assert.equal(env.body.ok, true, env.body.error);
      assert.equal(env.body.text, 'from env');
      assert.doesNotMatch(JSON.stringify(env.body), new RegExp(API_KEY));
    });

    it('names a server that is not deployed instead of running without it', async () => {
      const res = await helper
        .request()
        .post('/gemini-agent/test')
        .send(dialog({}, { servers: [{ server: 'ha' }, { server: 'not-deployed-yet' }] }))
        .expect(200);
      assert.equal(res.body.ok, false);
      assert.match(res.body.error, /not deployed: not-deployed-yet.*Deploy the flow first/);
      assert.equal(fake.requests.length, 0);
    });

    it('POST /gemini-agent/tools shows the functions each server row gives Gemini after its filters', async () => {
      const res = await helper
        .request()
        .post('/gemini-agent/tools')
        .send({ config: { servers: [{ server: 'ha', include: 'HassTurn*\nHassLight*', exclude: 'HassTurnOff', prefix: 'home_' }] } })
        .expect(200);
      assert.equal(res.body.ok, true, res.body.error);
      assert.equal(res.body.servers.length, 1);
      const row = res.body.servers[0];
      assert.equal(row.server, 'ha');
      assert.equal(row.total, 19);
      assert.deepEqual(row.functions.sort(), [`home_${n('HassLightSet')}`, `home_${n('HassTurnOn')}`].sort());
      const missing = await helper
        .request()
        .post('/gemini-agent/tools')
        .send({ config: { servers: [{ server: 'gone' }] } })
        .expect(200);
      assert.deepEqual(missing.body, {
        ok: true,
        servers: [{ server: 'gone', error: 'mcp-server not deployed: gone. Deploy the flow first (the dialog uses the deployed servers)' }],
        warnings: [],
      });
    });

    it('POST /gemini-agent/tools answers for each server row: a server that is down gets its own error, the others their functions', async () => {
      const down: ServerDef = { id: 'down', name: 'Gone', transport: 'http', url: `http://127.0.0.1:${await freePort()}/mcp` };
      await helper.unload();
      await loadAgent({ fake, servers: [server, down] });
      // Count what the route asks the deployed session (its own cache would hide a second listing at the peer).
      const provider = helper.getNode('ha').provider;
      const listTools = provider.listTools.bind(provider);
      let listings = 0;
      provider.listTools = (...args: unknown[]) => (listings++, listTools(...args));
      const res = await helper
        .request()
        .post('/gemini-agent/tools')
        .send({ config: { servers: [{ server: 'ha', include: 'HassTurnOn', prefix: 'home_' }, { server: 'down' }] } })
        .expect(200);
      assert.equal(res.body.ok, true, res.body.error);
      const [haRow, downRow] = res.body.servers;
      assert.deepEqual(haRow, { server: 'ha', name: 'Home Assistant', total: 19, functions: [`home_${n('HassTurnOn')}`] });
      assert.equal(downRow.server, 'down');
      assert.match(downRow.error, /ECONNREFUSED|connect|reach/i);
      assert.equal(listings, 1, 'each server is listed once per request (it used to be twice)');
    });
  });
}
