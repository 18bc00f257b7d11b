// examples/home-assistant-assist-prompt.json in a real Node-RED (as `npm start` starts it): the
// agent's system instruction is Home Assistant's Assist prompt, fetched per request from the HA
// stand-in and seen by the fake Gemini; the mcp-prompt and mcp-resource nodes of the flow show
// the prompt text and the exposed-entities YAML.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from './node-red-process';
import { startServicePeers, type ServicePeers } from './service-peers';

describe('examples: home-assistant-assist-prompt.json', function () {
  this.timeout(120_000);
  let peers: ServicePeers;
  let nr: NodeRedProcess;
  const flow = readExample('home-assistant-assist-prompt');

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

  it("puts HA's Assist prompt before the agent's own instruction in Gemini's systemInstruction", async () => {
    peers.gemini.script(reply.call('HassTurnOff', { area: 'Kitchen', domain: ['light'] }), reply.text('The kitchen light is off now.'));
    await nr.inject('hap-ask');
    const answer = await nr.debug.next('hap-answer', undefined, 60_000);
    assert.equal(answer.value, 'The kitchen light is off now.');
    const system: string = peers.gemini.requests[0].body.systemInstruction.parts.map((p: any) => p.text).join('');
    assert.match(system, /^When controlling Home Assistant always call the intent tools\./);
    assert.match(system, /Static Context: An overview of the areas and the devices in this smart home:/);
    assert.ok(system.endsWith('\n\nAnswer in one or two short sentences.'));
    assert.deepEqual(
      peers.ha.requests.filter((r) => r.rpcMethod === 'prompts/get').map((r: any) => r.json.params),
      [{ name: 'Assist', arguments: {} }],
    );
    assert.deepEqual(nr.debug.errors(), []);
  });

  it('shows the Assist text (mcp-prompt) and the exposed entities (mcp-resource)', async () => {
    await nr.inject('hap-show');
    const text = await nr.debug.next('hap-prompt-text');
    assert.match(text.value, /This device is not able to start timers\./);
    await nr.inject('hap-entities');
    const yaml = await nr.debug.next('hap-yaml');
    assert.match(yaml.value, /^assistant: conversation\nentities:/);
    for (const line of nr.log) assert.ok(!line.includes(peers.ha.token) && !line.includes(peers.gemini.apiKey), line);
  });
});
