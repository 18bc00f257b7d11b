// examples/esp32-and-home-assistant-agent.json end to end in a real Node-RED started as `npm start`
// starts it: the xiaozhi device simulator dials in over WebSocket, and one Gemini agent (the fake
// Gemini) calls a device tool and a Home Assistant tool in the same step.
import assert from 'node:assert/strict';
import { reply } from '../peers/fake-gemini';
import { HA_GENERATIONS, haToolName, type HaGeneration } from '../peers/home-assistant';
import type { XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';
import { dialInDevice, startServicePeers, withDeviceToken, type ServicePeers } from './service-peers';

for (const generation of HA_GENERATIONS) describeExample(generation);

function describeExample(generation: HaGeneration) {
  describe(`examples: esp32-and-home-assistant-agent.json on Home Assistant ${generation}`, function () {
    const n = (tool: string) => haToolName(generation, tool);
    this.timeout(120_000);
    let peers: ServicePeers;
    let nr: NodeRedProcess;
    let device: XiaozhiWsDevice | undefined;
    const flow = readExample('esp32-and-home-assistant-agent');

    before(async () => {
      peers = await startServicePeers(generation);
      nr = await startNodeRed({ env: peers.env });
      await nr.deploy(withDeviceToken(flow));
    });
    after(async () => {
      device?.close();
      await nr?.stop();
      await peers?.close();
    });

    it('deploys without errors or unknown node types', async () => {
      await assertCleanDeploy(nr, flow);
    });

    it('one prompt sets the device volume and turns on a Home Assistant light', async () => {
      device = await dialInDevice(nr, '/xiaozhi/agent/');
      await nr.debug.next('eha-debug-events', (m) => m.value?.topic === 'tools');

      peers.gemini.script(
        reply.calls([
          { name: 'device_self_audio_speaker_set_volume', args: { volume: 30 } },
          { name: `ha_${n(n('HassTurnOn'))}`, args: { name: 'Kitchen Light', domain: ['light'] } },
        ]),
        reply.text('Volume set to 30 and the kitchen light is on.'),
      );
      await nr.inject('eha-inject-ask');
      const answer = await nr.debug.next('eha-debug-answer', undefined, 60_000);
      assert.equal(answer.value, 'Volume set to 30 and the kitchen light is on.');
      const trace = await nr.debug.next('eha-debug-trace');
      assert.deepEqual(
        trace.value.steps[0].calls.map((c: any) => [c.name, c.tool, c.isError]),
        [
          ['device_self_audio_speaker_set_volume', 'self.audio_speaker.set_volume', false],
          [`ha_${n(n('HassTurnOn'))}`, n('HassTurnOn'), false],
        ],
      );
      assert.equal(device.firmware.state.volume, 30);
      assert.ok(peers.ha.requests.some((r: any) => r.rpcMethod === 'tools/call' && r.json.params.name === n('HassTurnOn')));
      const declared: string[] = peers.gemini.requests[0].body.tools.flatMap((t: any) => t.functionDeclarations ?? []).map((d: any) => d.name);
      assert.equal(declared.filter((n) => n.startsWith('ha_')).length, peers.ha.tools.length);
      assert.ok(declared.filter((n) => n.startsWith('device_')).length > 0);
      assert.ok(
        declared.every((n) => /^(device|ha)_/.test(n)),
        declared.join(', '),
      );
      assert.deepEqual(nr.debug.errors(), []);
    });
  });
}
