// What a user sees of an esp32-listener in a real Node-RED, with a device making the firmware's OTA
// check: the status points to pairing while a device waits (not to tokens, which a new user would
// read as something to fix), and ${VAR} from the tab inside a longer text setting is expanded, as
// in every other text setting (Node-RED itself replaces only a value that is nothing but ${VAR}).
// Each test pairs the device it made wait, so none depends on the other's order.
import assert from 'node:assert/strict';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';

describe('esp32-listener: its status and its settings, as a user sees them', function () {
  this.timeout(60_000);
  let nr: NodeRedProcess;
  before(async () => {
    nr = await startNodeRed();
    await nr.deploy([
      { id: 'tab', type: 'tab', label: 'devices', env: [{ name: 'HOME_DOMAIN', value: 'lan', type: 'str' }] },
      { id: 'L', type: 'esp32-listener', z: 'tab', name: 'Home devices', answerOta: true, publicAddress: 'nodered.${HOME_DOMAIN}:1880' },
      // A listener serves devices once a node uses it.
      { id: 'in', type: 'esp32-mcp-in', z: 'tab', listener: 'L', events: 'connected', wires: [[]] },
    ]);
  });
  after(async () => nr?.stop());

  /** A device's OTA check, retried while the deployed listener has not started answering yet. */
  async function otaCheck(mac: string, clientId: string): Promise<any> {
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${nr.url}/xiaozhi/ota/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'device-id': mac, 'client-id': clientId },
        body: '{}',
      });
      if (res.status !== 404) return res.json();
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the OTA address never answered');
  }

  /** The status the editor shows on the listener's user, once it matches. */
  async function statusWhen(match: (text: string) => boolean): Promise<{ text: string; fill?: string }> {
    for (let i = 0; i < 300; i++) {
      const s = nr.debug.statuses.get('in') as { text?: string; fill?: string } | undefined;
      if (s?.text && match(s.text)) return { text: s.text, fill: s.fill };
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`status never matched; last: ${JSON.stringify(nr.debug.statuses.get('in'))}`);
  }

  const pair = async (code: string) => assert.equal((await nr.request('POST', '/esp32-listener/L/pair', { code })).status, 200);

  it('no device: "no token set"; a device that checked in: "1 device(s) waiting to pair: open the listener"; paired: waiting for it to connect', async () => {
    const first = await statusWhen((t) => /no token set/.test(t));
    assert.equal(first.fill, 'red');
    const { activation } = await otaCheck('02:aa:bb:cc:dd:20', '0f0e0d0c-0b0a-4908-8706-050403020120');
    const shown = await statusWhen((t) => /waiting to pair/.test(t));
    assert.equal(shown.text, '1 device(s) waiting to pair: open the listener');
    assert.equal(shown.fill, 'yellow');
    await pair(activation.code);
    // Paired: the listener now takes that device's own token, and waits for it to connect.
    assert.equal((await statusWhen((t) => !/waiting to pair/.test(t))).text, 'waiting for devices');
  });

  it("a device's OTA check is told the public address the tab's variable completes", async () => {
    const body = await otaCheck('02:aa:bb:cc:dd:10', '0f0e0d0c-0b0a-4908-8706-050403020110');
    assert.equal(body.websocket.url, 'ws://nodered.lan:1880/xiaozhi/v1/');
    await pair(body.activation.code);
  });
});
