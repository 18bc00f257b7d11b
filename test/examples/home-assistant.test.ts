// examples/home-assistant.json end to end: imported into a real Node-RED (started as `npm start`
// starts it) whose HA_URL/HA_TOKEN point at the Home Assistant stand-in, once per Home Assistant
// generation: the example names today's tools (`intent__HassTurnOn`) and works on older installs too.
import assert from 'node:assert/strict';
import { HA_GENERATIONS, haToolName, startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: home-assistant.json on Home Assistant ${generation}`, function () {
    this.timeout(120_000);
    let ha: HomeAssistantStandIn;
    let nr: NodeRedProcess;
    const flow = readExample('home-assistant');
    const named = (tool: string) => haToolName(generation, tool);
    // Before 2026.9 the example's names are resolved to the old ones, and each call node says so once.
    const renameWarnings = () => nr.debug.errors().filter((m) => /is called as/.test(JSON.stringify(m.raw)));
    const otherErrors = () => nr.debug.errors().filter((m) => !/is called as/.test(JSON.stringify(m.raw)));

    before(async () => {
      ha = await startHomeAssistant({ token: 'example-test-token-5d1c', generation });
      nr = await startNodeRed({ env: { HA_URL: new URL(ha.url).origin, HA_TOKEN: ha.token } });
      await nr.deploy(flow);
    });
    after(async () => {
      await nr?.stop();
      await ha?.close();
    });

    it('deploys without errors or unknown node types', async () => {
      await assertCleanDeploy(nr, flow);
    });

    it('lists the tools in every format', async () => {
      await nr.inject('ha-inject-list');
      const count = ha.tools.length;
      const mcp = await nr.debug.next('ha-debug-mcp');
      assert.deepEqual(
        mcp.value.map((t: any) => t.name),
        ha.tools.map((t) => t.name),
      );
      const gemini = await nr.debug.next('ha-debug-gemini');
      assert.equal(gemini.value.functionDeclarations.length, count);
      assert.ok(gemini.value.functionDeclarations.every((d: any) => d.parametersJsonSchema && !d.parameters));
      const geminiSchema = await nr.debug.next('ha-debug-gemini-schema');
      assert.equal(geminiSchema.value.functionDeclarations.length, count);
      assert.ok(geminiSchema.value.functionDeclarations.every((d: any) => d.parameters && !d.parametersJsonSchema));
      const openai = await nr.debug.next('ha-debug-openai');
      assert.equal(openai.value.length, count);
      assert.ok(openai.value.every((d: any) => d.type === 'function' && d.function.name && d.function.parameters));
      const anthropic = await nr.debug.next('ha-debug-anthropic');
      assert.equal(anthropic.value.length, count);
      assert.ok(anthropic.value.every((d: any) => d.name && d.input_schema));
      // Every request carried the token from HA_TOKEN, through the env-expanded header.
      assert.ok(ha.requests.length > 0);
      for (const r of ha.requests) assert.equal(r.headers.authorization, `Bearer ${ha.token}`);
    });

    it('turns the light on and off', async () => {
      await nr.inject('ha-inject-on');
      const on = await nr.debug.next('ha-debug-light');
      assert.equal(on.value.response_type, 'action_done');
      assert.deepEqual(on.value.data.success, [{ name: 'Kitchen Light', type: 'entity', id: 'light.kitchen_light' }]);
      const warnedOn = renameWarnings().length;
      nr.debug.clear();
      await nr.inject('ha-inject-off');
      await nr.debug.next('ha-debug-light');
      const calls = ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params);
      assert.deepEqual(
        calls.map((p) => [p.name, p.arguments]),
        [
          [named('HassTurnOn'), { name: 'Kitchen Light', domain: ['light'] }],
          [named('HassTurnOff'), { name: 'Kitchen Light', domain: ['light'] }],
        ],
      );
      assert.deepEqual(otherErrors(), []);
      assert.deepEqual(
        [warnedOn, renameWarnings().length],
        generation === '2026.10' ? [0, 0] : [1, 1],
        'one rename warning per call node on an older Home Assistant',
      );
    });

    it('a rejected token reaches the catch node as a readable error, without the token', async () => {
      const wrong = 'wrong-token-never-shown-9f2e';
      const variant = flow.map((n) => (n.id === 'ha-server' ? { ...n, headers: { Authorization: `Bearer ${wrong}` } } : n));
      await nr.deploy(variant);
      nr.debug.clear();
      await nr.inject('ha-inject-on');
      const caught = await nr.debug.next('ha-debug-errors');
      assert.match(JSON.stringify(caught.value), /401/);
      assert.ok(!JSON.stringify(nr.debug.messages.map((m) => m.raw)).includes(wrong));
      assert.ok(!nr.log.some((l) => l.includes(wrong)));
      // Back to the example as shipped for the checks that follow.
      await nr.deploy(flow);
      nr.debug.clear();
    });

    it('never shows the token in the sidebar or the log', () => {
      for (const m of nr.debug.messages) assert.ok(!JSON.stringify(m.raw).includes(ha.token));
      for (const line of nr.log) assert.ok(!line.includes(ha.token), line);
    });
  });
}
