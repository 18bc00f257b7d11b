// examples/esp32-device-tools.json (owned by the ESP32 work) end to end in a real Node-RED started as
// `npm start` starts it: the xiaozhi device simulator dials in over WebSocket on Node-RED's own HTTP
// server, its tools are listed and its volume set from the inject nodes.
import assert from 'node:assert/strict';
import { ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from './node-red-process';

const OTTO_ID = 'd8:3b:da:4e:21:7c';

describe('examples: esp32-device-tools.json', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let device: XiaozhiWsDevice | undefined;
  const flow = readExample('esp32-device-tools');

  before(async () => {
    nr = await startNodeRed();
    await nr.deploy(flow);
  });
  after(async () => {
    device?.close();
    await nr?.stop();
  });

  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, flow);
  });

  it('accepts the device, lists its tools and sets its volume', async () => {
    const url = `${nr.url.replace('http', 'ws')}/xiaozhi/v1/`;
    // The listener is attached once the flow has started; retry the first connection briefly.
    for (let attempt = 0; !device; attempt++) {
      try {
        device = await XiaozhiWsDevice.connect({ url, deviceId: OTTO_ID, fixture: ottoRobot() });
      } catch (err) {
        if (attempt > 20) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    const event = await nr.debug.next('esp32.events', (m) => m.value?.topic === 'tools');
    assert.equal(event.value.device.id, OTTO_ID);

    await nr.inject('esp32.listInject');
    const tools = await nr.debug.next('esp32.tools');
    assert.ok(tools.value.some((t: any) => t.name === 'self.audio_speaker.set_volume'));

    await nr.inject('esp32.volumeInject');
    const result = await nr.debug.next('esp32.result');
    assert.equal(result.value.mcp.tool, 'self.audio_speaker.set_volume');
    assert.equal(device.firmware.state.volume, 30);
    assert.deepEqual(nr.debug.errors(), []);
  });
});
