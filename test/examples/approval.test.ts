// examples/approval.json in a real Node-RED: the agent's HassTurnOff call waits for the
// dashboard-style Approve / Refuse buttons. Approved, it reaches the Home Assistant stand-in;
// refused, the stand-in's request log shows it never arrived and Gemini reads the refusal.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from './node-red-process';
import { startServicePeers, type ServicePeers } from './service-peers';

describe('examples: approval.json', function () {
  this.timeout(120_000);
  let peers: ServicePeers;
  let nr: NodeRedProcess;
  const flow = readExample('approval');
  const haCalls = () => peers.ha.requests.filter((r) => r.rpcMethod === 'tools/call').map((r: any) => r.json.params.name);

  before(async () => {
    peers = await startServicePeers();
    nr = await startNodeRed({ env: peers.env });
    await nr.deploy(flow);
  });
  after(async () => {
    await nr?.stop();
    await peers?.close();
  });
  beforeEach(() => nr.debug.clear());

  it('deploys without errors or unknown node types, and tells where the HA websocket nodes come in', async () => {
    await assertCleanDeploy(nr, flow);
    const pattern = flow.find((n) => n.id === 'apr-ha-comment') as any;
    assert.match(pattern.info, /node-red-contrib-home-assistant-websocket/);
    assert.match(pattern.info, /mobile_app_notification_action/);
  });

  it('Refuse: the call never reaches Home Assistant and Gemini reads the refusal', async () => {
    peers.gemini.script(reply.call('HassTurnOff', { name: 'Front Door', domain: ['lock'] }), reply.text('I left the door locked.'));
    await nr.inject('apr-ask');
    const request = await nr.debug.next('apr-request', undefined, 60_000);
    assert.deepEqual(request.value.args, { name: 'Front Door', domain: ['lock'] });
    assert.equal(request.value.tool, 'HassTurnOff');
    await nr.inject('apr-refuse');
    const answer = await nr.debug.next('apr-answer', undefined, 60_000);
    assert.equal(answer.value, 'I left the door locked.');
    const response = peers.gemini.requests[1].body.contents.at(-1).parts[0].functionResponse.response;
    assert.deepEqual(response, { error: 'refused by the user: refused on the dashboard' });
    assert.deepEqual(haCalls(), []);
  });

  it('Approve: the call runs', async () => {
    peers.gemini.script(reply.call('HassTurnOff', { name: 'Front Door', domain: ['lock'] }), reply.text('The front door is unlocked.'));
    await nr.inject('apr-ask');
    await nr.debug.next('apr-request', undefined, 60_000);
    await nr.inject('apr-approve');
    const answer = await nr.debug.next('apr-answer', undefined, 60_000);
    assert.equal(answer.value, 'The front door is unlocked.');
    assert.deepEqual(haCalls(), ['HassTurnOff']);
    assert.deepEqual(nr.debug.errors(), []);
  });
});
