// examples/home-assistant-gemini.json (owned by the Gemini work) end to end in a real Node-RED started
// as `npm start` starts it: the prompt of its inject node goes to the fake Gemini, which calls the
// Home Assistant stand-in's tools through the agent.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { useDeployedExample } from './service-peers';

describe('examples: home-assistant-gemini.json', function () {
  this.timeout(120_000);
  const ex = useDeployedExample('home-assistant-gemini');

  it('answers the prompt after calling Home Assistant tools, with the trace', async () => {
    ex.peers.gemini.script(
      reply.call('GetLiveContext', {}),
      reply.call('HassTurnOff', { name: 'Kitchen Light', domain: ['light'] }),
      reply.text('The kitchen light is off.'),
    );
    const inject = ex.flow.find((n) => n.type === 'inject')!;
    await ex.nr.inject(inject.id);
    const answer = await ex.nr.debug.next('hag-answer', undefined, 60_000);
    assert.equal(answer.value, 'The kitchen light is off.');
    const trace = await ex.nr.debug.next('hag-trace');
    assert.deepEqual(
      trace.value.steps.flatMap((s: any) => s.calls.map((c: any) => [c.name, c.isError])),
      [
        ['GetLiveContext', false],
        ['HassTurnOff', false],
      ],
    );
    assert.deepEqual(
      ex.peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name),
      ['GetLiveContext', 'HassTurnOff'],
    );
    assert.equal(ex.peers.gemini.pending(), 0);
    assert.deepEqual(ex.nr.debug.errors(), []);
    for (const line of ex.nr.log) assert.ok(!line.includes(ex.peers.ha.token) && !line.includes(ex.peers.gemini.apiKey), line);
  });
});
