// examples/approval.json in a real Node-RED, on both Home Assistant generations: the agent asks
// before every tool not marked read-only, so the call that unlocks a lock (`intent__HassTurnOff`,
// `HassTurnOff` before 2026.9) waits for the dashboard-style Approve / Refuse buttons whatever its
// name. Approved, it reaches the Home Assistant stand-in; refused, the stand-in's request log shows it
// never arrived and Gemini reads the refusal. A tool 2026.10 marks read-only runs without asking.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import { useDeployedExample } from './service-peers';

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: approval.json on Home Assistant ${generation}`, function () {
    this.timeout(120_000);
    const ex = useDeployedExample('approval', generation);
    const unlock = haToolName(generation, 'HassTurnOff');
    const haCalls = () => ex.peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name);

    beforeEach(() => ex.nr.debug.clear());

    it('tells where the HA websocket nodes come in', () => {
      const pattern = ex.flow.find((n) => n.id === 'apr-ha-comment') as any;
      assert.match(pattern.info, /node-red-contrib-home-assistant-websocket/);
      assert.match(pattern.info, /mobile_app_notification_action/);
    });

    it('Refuse: the call never reaches Home Assistant and Gemini reads the refusal', async () => {
      ex.peers.gemini.script(reply.call(unlock, { name: 'Front Door', domain: ['lock'] }), reply.text('I left the door locked.'));
      await ex.nr.inject('apr-ask');
      const request = await ex.nr.debug.next('apr-request', undefined, 60_000);
      assert.deepEqual(request.value.args, { name: 'Front Door', domain: ['lock'] });
      assert.equal(request.value.tool, unlock);
      await ex.nr.inject('apr-refuse');
      const answer = await ex.nr.debug.next('apr-answer', undefined, 60_000);
      assert.equal(answer.value, 'I left the door locked.');
      const response = ex.peers.gemini.requests[1].body.contents.at(-1).parts[0].functionResponse.response;
      assert.deepEqual(response, { error: 'refused by the user: refused on the dashboard' });
      assert.deepEqual(haCalls(), []);
    });

    it('Approve: the call runs', async () => {
      ex.peers.gemini.script(reply.call(unlock, { name: 'Front Door', domain: ['lock'] }), reply.text('The front door is unlocked.'));
      await ex.nr.inject('apr-ask');
      await ex.nr.debug.next('apr-request', undefined, 60_000);
      await ex.nr.inject('apr-approve');
      const answer = await ex.nr.debug.next('apr-answer', undefined, 60_000);
      assert.equal(answer.value, 'The front door is unlocked.');
      assert.deepEqual(haCalls(), [unlock]);
      assert.deepEqual(ex.nr.debug.errors(), []);
    });

    if (generation === '2026.10') {
      it('a tool Home Assistant marks read-only (llm__GetDateTime) runs without asking', async () => {
        ex.nr.debug.clear();
        const before = haCalls().length;
        ex.peers.gemini.script(reply.call('llm__GetDateTime', {}), reply.text('It is Wednesday.'));
        await ex.nr.inject('apr-ask');
        const answer = await ex.nr.debug.next('apr-answer', undefined, 60_000);
        assert.equal(answer.value, 'It is Wednesday.');
        assert.deepEqual(haCalls().slice(before), ['llm__GetDateTime']);
        assert.equal(ex.nr.debug.messages.filter((m) => m.id === 'apr-request').length, 0, 'no approval request');
      });
    }
  });
}
