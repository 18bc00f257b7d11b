// examples/esp32-device-tools.json (owned by the ESP32 work) end to end in a real Node-RED started as
// `npm start` starts it: the xiaozhi device simulator dials in over WebSocket on Node-RED's own HTTP
// server, its tools are listed and its volume set from the inject nodes; and a stock device joins as
// the comment says, through the OTA address and its spoken code.
import assert from 'node:assert/strict';
import { OtaDevice, XiaozhiWsDevice, ottoRobot } from '../peers/xiaozhi-device';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';
import { dialInDevice, OTTO_ID, withDeviceToken } from './service-peers';

describe('examples: esp32-device-tools.json', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let device: XiaozhiWsDevice | undefined;
  const flow = readExample('esp32-device-tools');

  before(async () => {
    nr = await startNodeRed();
    await nr.deploy(withDeviceToken(flow));
  });
  after(async () => {
    device?.close();
    await nr?.stop();
  });

  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, flow);
  });

  it('accepts the device, lists its tools and sets its volume', async () => {
    device = await dialInDevice(nr, '/xiaozhi/v1/');
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

  it('a stock device joins as the comment says: OTA address, spoken code typed under Pairing, then its own token', async () => {
    const stock = new OtaDevice({ mac: '02:11:22:33:44:55', uuid: '0f0e0d0c-0b0a-4908-8706-050403020100' });
    const joined = stock.join(`${nr.url}/xiaozhi/ota/`);
    const pairing = await nr.debug.next('esp32.events', (m) => m.value?.topic === 'pairing');
    const paired = await nr.request('POST', '/esp32-listener/esp32.listener/pair', { code: pairing.value.payload.code });
    assert.equal(paired.status, 200, paired.text);
    const { nvs, spoken } = await joined;
    assert.deepEqual(spoken.slice(0, 1), [pairing.value.payload.code]);
    const second = await XiaozhiWsDevice.connect({
      url: String(nvs.websocket.url),
      token: String(nvs.websocket.token),
      deviceId: '02:11:22:33:44:55',
      // The firmware's WebSocket carries the board uuid of its OTA check as Client-Id.
      clientId: stock.uuid,
      fixture: ottoRobot(),
    });
    try {
      const event = await nr.debug.next('esp32.events', (m) => m.value?.topic === 'tools' && m.value.device.id === '02:11:22:33:44:55');
      assert.ok(event.value.payload.length > 0);
    } finally {
      second.close();
    }
  });
});
