// examples/home-assistant-gemini.json (owned by the Gemini work) end to end in a real Node-RED started
// as `npm start` starts it: the prompt of its inject node goes to the fake Gemini, which calls the
// Home Assistant stand-in's tools through the agent.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from './node-red-process';
import { startServicePeers, type ServicePeers } from './service-peers';

describe('examples: home-assistant-gemini.json', function () {
  this.timeout(120_000);
  let peers: ServicePeers;
  let nr: NodeRedProcess;
  const flow = readExample('home-assistant-gemini');

  before(async () => {
    peers = await startServicePeers();
    nr = await startNodeRed({ env: peers.env });
    await nr.deploy(flow);
  });
  after(async () => {
    await nr?.stop();
    await peers?.close();
  });

  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, flow);
  });

  it('answers the prompt after calling Home Assistant tools, with the trace', async () => {
    peers.gemini.script(
      reply.call('GetLiveContext', {}),
      reply.call('HassTurnOff', { name: 'Kitchen Light', domain: ['light'] }),
      reply.text('The kitchen light is off.'),
    );
    const inject = flow.find((n) => n.type === 'inject')!;
    await nr.inject(inject.id);
    const answer = await nr.debug.next('hag-answer', undefined, 60_000);
    assert.equal(answer.value, 'The kitchen light is off.');
    const trace = await nr.debug.next('hag-trace');
    assert.deepEqual(
      trace.value.steps.flatMap((s: any) => s.calls.map((c: any) => [c.name, c.isError])),
      [
        ['GetLiveContext', false],
        ['HassTurnOff', false],
      ],
    );
    assert.deepEqual(
      peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name),
      ['GetLiveContext', 'HassTurnOff'],
    );
    assert.equal(peers.gemini.pending(), 0);
    assert.deepEqual(nr.debug.errors(), []);
    for (const line of nr.log) assert.ok(!line.includes(peers.ha.token) && !line.includes(peers.gemini.apiKey), line);
  });
});
