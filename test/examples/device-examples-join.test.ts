// Every example with an ESP32 listener lets a stock device join the way the firmware joins: it
// checks the OTA address, speaks a code, is paired in the listener's dialog, and its next check
// sends it to that example's own listener with a token of its own (the firmware-exact OtaDevice,
// fixtures/xiaozhi/ota-check.json). Deployed together, only one listener answers the address and
// the others say how to choose.
import assert from 'node:assert/strict';
import { OtaDevice } from '../peers/xiaozhi-device';
import { readExample, startNodeRed, type NodeRedProcess } from '../helpers/node-red';

const EXAMPLES = [
  'esp32-device-tools',
  'esp32-voice-talk-to-your-home',
  'esp32-voice-home-assistant-assist',
  'esp32-voice-live',
  'esp32-and-home-assistant-agent',
];

describe('device examples: a stock device joins each by its spoken code (real Node-RED)', function () {
  this.timeout(120000);
  let nr: NodeRedProcess;
  before(async () => (nr = await startNodeRed()));
  after(() => nr?.stop());

  EXAMPLES.forEach((name, i) => {
    it(`${name}: the device speaks a code, is paired in its listener, and its next check sends it to ${name}'s listener`, async () => {
      const flow = readExample(name);
      const listener = flow.find((n) => n.type === 'esp32-listener')!;
      assert.equal(listener.answerOta, true, 'the example answers the OTA check');
      await nr.deploy(flow);
      const device = new OtaDevice({ mac: `d8:3b:da:4e:21:${(0x10 + i).toString(16)}` });
      let code = '';
      for (const started = Date.now(); !code; await new Promise((r) => setTimeout(r, 100))) {
        code = (await device.check(`${nr.url}/xiaozhi/ota/`)).json?.activation?.code ?? '';
        assert.ok(Date.now() - started < 20000, 'the device got a code');
      }
      const paired = await nr.request('POST', `/esp32-listener/${encodeURIComponent(listener.id)}/pair`, { code });
      assert.equal(paired.status, 200, paired.text);
      const { json } = await device.check(`${nr.url}/xiaozhi/ota/`);
      assert.equal(json?.activation, undefined);
      assert.equal(new URL(String(json?.websocket?.url)).pathname, listener.path);
      assert.ok(String(json?.websocket?.token).length >= 32, 'a token of its own');
    });
  });

  it('deployed together, one listener answers the address and the others say how to choose', async () => {
    const before = nr.log.length;
    await nr.deploy([...readExample('esp32-device-tools'), ...readExample('esp32-voice-live')]);
    for (
      const started = Date.now();
      !nr.log.slice(before).some((l) => l.includes('is answered by esp32-listener'));
      await new Promise((r) => setTimeout(r, 100))
    )
      assert.ok(Date.now() - started < 20000, 'the second listener says the address is taken');
    const said = nr.log.slice(before).find((l) => l.includes('is answered by esp32-listener'))!;
    assert.match(said, /untick "Answer devices' OTA check" on/);
  });
});
