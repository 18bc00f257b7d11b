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
    const off = haToolName(generation, 'HassTurnOff');

    it('answers the prompt after calling Home Assistant tools, with the trace; the house state comes from the context snapshot', async () => {
      ex.peers.gemini.script(reply.call(off, { name: 'Kitchen Light', domain: ['light'] }), reply.text('The kitchen light is off.'));
      const inject = ex.flow.find((n) => n.type === 'inject')!;
      await ex.nr.inject(inject.id);
      const answer = await ex.nr.debug.next('hag-answer', undefined, 60_000);
      assert.equal(answer.value, 'The kitchen light is off.');
      const trace = await ex.nr.debug.next('hag-trace');
      assert.deepEqual(
        trace.value.steps.flatMap((s: any) => s.calls.map((c: any) => [c.name, c.isError])),
        [[off, false]],
      );
      assert.deepEqual(
        ex.peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name),
        [off],
      );
      assert.match(ex.peers.gemini.requests[0].body.systemInstruction.parts[0].text, /This is the home right now:\nLive Context: /);
      assert.deepEqual(
        ex.peers.ha.requests.filter((r) => r.rpcMethod === 'resources/read').map((r: any) => r.json.params.uri),
        ['homeassistant://assist/context-snapshot'],
      );
      assert.equal(ex.peers.gemini.pending(), 0);
      assert.deepEqual(ex.nr.debug.errors(), []);
      for (const line of ex.nr.log) assert.ok(!line.includes(ex.peers.ha.token) && !line.includes(ex.peers.gemini.apiKey), line);
    });
  });
}
