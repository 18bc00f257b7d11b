// While a device waits to pair, the listener's status says so and where to go, instead of "no token
// set: devices refused" (which a new user reads as something to fix with tokens). A real Node-RED,
// the status of the listener's user as the editor receives it, and an OTA check as the firmware makes it.
import assert from 'node:assert/strict';
import { startNodeRed, type NodeRedProcess } from '../examples/node-red-process';

describe('esp32-listener: the status points to pairing while a device waits', function () {
  this.timeout(60_000);
  let nr: NodeRedProcess;
  before(async () => {
    nr = await startNodeRed();
    await nr.deploy([
      { id: 'tab', type: 'tab', label: 'devices' },
      { id: 'L', type: 'esp32-listener', z: 'tab', name: 'Home devices', answerOta: true },
      { id: 'in', type: 'esp32-mcp-in', z: 'tab', listener: 'L', events: 'connected', wires: [[]] },
    ]);
  });
  after(async () => nr?.stop());

  /** The status the editor shows on the listener's user, once it matches. */
  async function statusWhen(match: (text: string) => boolean): Promise<{ text: string; fill?: string }> {
    for (let i = 0; i < 300; i++) {
      const s = nr.debug.statuses.get('in') as { text?: string; fill?: string } | undefined;
      if (s?.text && match(s.text)) return { text: s.text, fill: s.fill };
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`status never matched; last: ${JSON.stringify(nr.debug.statuses.get('in'))}`);
  }

  it('no device: "no token set"; a device that checked in: "1 device(s) waiting to pair: open the listener"; paired: waiting for it to connect', async () => {
    const first = await statusWhen((t) => /no token set/.test(t));
    assert.equal(first.fill, 'red');
    const check = () =>
      fetch(`${nr.url}/xiaozhi/ota/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'device-id': '02:aa:bb:cc:dd:20', 'client-id': '0f0e0d0c-0b0a-4908-8706-050403020120' },
        body: '{}',
      });
    const code = (await (await check()).json()).activation.code;
    const shown = await statusWhen((t) => /waiting to pair/.test(t));
    assert.equal(shown.text, '1 device(s) waiting to pair: open the listener');
    assert.equal(shown.fill, 'yellow');
    assert.equal((await nr.request('POST', '/esp32-listener/L/pair', { code })).status, 200);
    // Paired: the listener now takes that device's own token, and waits for it to connect.
    assert.equal((await statusWhen((t) => !/waiting to pair/.test(t))).text, 'waiting for devices');
  });
});
