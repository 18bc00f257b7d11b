// examples/home-assistant-assist-prompt.json in a real Node-RED (as `npm start` starts it): the
// agent's system instruction is Home Assistant's Assist prompt, fetched per request from the HA
// stand-in and seen by the fake Gemini; the mcp-prompt and mcp-resource nodes of the flow show
// the prompt text and the live context snapshot. Once per Home Assistant generation.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haFixtures, haToolName, type HaGeneration } from '../peers/home-assistant';
import { useDeployedExample } from './service-peers';

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: home-assistant-assist-prompt.json on Home Assistant ${generation}`, function () {
    this.timeout(120_000);
    const ex = useDeployedExample('home-assistant-assist-prompt', generation);
    const assistText = (haFixtures(generation).assistPromptResult as any).messages[0].content.text as string;

    it("puts HA's Assist prompt before the agent's own instruction in Gemini's systemInstruction", async () => {
      ex.peers.gemini.script(
        reply.call(haToolName(generation, 'HassTurnOff'), { area: 'Kitchen', domain: ['light'] }),
        reply.text('The kitchen light is off now.'),
      );
      await ex.nr.inject('hap-ask');
      const answer = await ex.nr.debug.next('hap-answer', undefined, 60_000);
      assert.equal(answer.value, 'The kitchen light is off now.');
      const system: string = ex.peers.gemini.requests[0].body.systemInstruction.parts.map((p: any) => p.text).join('');
      assert.equal(system, `${assistText}\n\nAnswer in one or two short sentences.`);
      assert.deepEqual(
        ex.peers.ha.requests.filter((r) => r.rpcMethod === 'prompts/get').map((r: any) => r.json.params),
        [{ name: 'Assist', arguments: {} }],
      );
      assert.deepEqual(ex.nr.debug.errors(), []);
    });

    it('shows the Assist text (mcp-prompt) and the live context snapshot (mcp-resource)', async () => {
      await ex.nr.inject('hap-show');
      const text = await ex.nr.debug.next('hap-prompt-text');
      assert.match(text.value, /This device is not able to start timers\./);
      await ex.nr.inject('hap-entities');
      const snapshot = await ex.nr.debug.next('hap-yaml');
      assert.match(snapshot.value, /^Live Context: An overview of the areas and the devices in this smart home:/);
      for (const line of ex.nr.log) assert.ok(!line.includes(ex.peers.ha.token) && !line.includes(ex.peers.gemini.apiKey), line);
    });
  });
}
