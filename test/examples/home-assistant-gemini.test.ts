// examples/home-assistant-gemini.json (owned by the Gemini work) end to end in a real Node-RED started
// as `npm start` starts it: the prompt of its inject node goes to the fake Gemini, which calls the
// Home Assistant stand-in's tools through the agent.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { useDeployedExample } from './service-peers';

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: home-assistant-gemini.json on Home Assistant ${generation}`, function () {
    this.timeout(120_000);
    const ex = useDeployedExample('home-assistant-gemini', generation);
    // Gemini calls the tools by the names the agent declared: the server's own.
    const [live, off] = [haToolName(generation, 'GetLiveContext'), haToolName(generation, 'HassTurnOff')];

    it('answers the prompt after calling Home Assistant tools, with the trace', async () => {
      ex.peers.gemini.script(reply.call(live, {}), reply.call(off, { name: 'Kitchen Light', domain: ['light'] }), reply.text('The kitchen light is off.'));
      const inject = ex.flow.find((n) => n.type === 'inject')!;
      await ex.nr.inject(inject.id);
      const answer = await ex.nr.debug.next('hag-answer', undefined, 60_000);
      assert.equal(answer.value, 'The kitchen light is off.');
      const trace = await ex.nr.debug.next('hag-trace');
      assert.deepEqual(
        trace.value.steps.flatMap((s: any) => s.calls.map((c: any) => [c.name, c.isError])),
        [
          [live, false],
          [off, false],
        ],
      );
      assert.deepEqual(
        ex.peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name),
        [live, off],
      );
      assert.equal(ex.peers.gemini.pending(), 0);
      assert.deepEqual(ex.nr.debug.errors(), []);
      for (const line of ex.nr.log) assert.ok(!line.includes(ex.peers.ha.token) && !line.includes(ex.peers.gemini.apiKey), line);
    });
  });
}
