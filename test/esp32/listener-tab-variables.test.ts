// The listener's public address and firmware offer expand ${VAR} from the tab, as every other text
// setting does: a real Node-RED, a tab with env entries, and the OTA answer a device gets. (Node-RED
// itself replaces a value that is nothing but ${VAR}; a variable inside a longer text is ours to expand.)
import assert from 'node:assert/strict';
import { startNodeRed, type NodeRedProcess } from '../examples/node-red-process';

describe('esp32-listener: ${VAR} from the tab in the public address', function () {
  this.timeout(60_000);
  let nr: NodeRedProcess;
  before(async () => {
    nr = await startNodeRed();
    await nr.deploy([
      { id: 'tab', type: 'tab', label: 'devices', env: [{ name: 'HOME_DOMAIN', value: 'lan', type: 'str' }] },
      { id: 'L', type: 'esp32-listener', z: 'tab', name: 'Home devices', answerOta: true, publicAddress: 'nodered.${HOME_DOMAIN}:1880' },
      { id: 'in', type: 'esp32-mcp-in', z: 'tab', listener: 'L', events: 'connected', wires: [[]] },
    ]);
  });
  after(async () => nr?.stop());

  it("a device's OTA check is told the address the tab's variable names", async () => {
    let res: Response | undefined;
    for (let i = 0; i < 150 && (!res || res.status === 404); i++) {
      if (i) await new Promise((r) => setTimeout(r, 100));
      res = await fetch(`${nr.url}/xiaozhi/ota/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'device-id': '02:aa:bb:cc:dd:10', 'client-id': '0f0e0d0c-0b0a-4908-8706-050403020110' },
        body: '{}',
      });
    }
    const body = await res!.json();
    assert.equal(body.websocket.url, 'ws://nodered.lan:1880/xiaozhi/v1/');
  });
});
