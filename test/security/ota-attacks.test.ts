// The OTA address attacked from the LAN, against a real Node-RED with the default roots (the editor's
// API at "/", in front of every route): a paired device's MAC sent by a stranger gets no token and
// its connection cannot be taken; the firmware's own broken JSON (a quote in the Wi-Fi name) and a
// body nested 30,000 deep get short JSON answers, not the editor's HTML error page with a stack; the
// pairing route answers an object for a code with a 4xx JSON error. The device is the firmware-exact
// simulator (test/peers/xiaozhi-device/ota-device.ts); the attacker is plain HTTP.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OtaDevice, XiaozhiWsDevice, ottoRobot } from '../peers/xiaozhi-device';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';

const MAC = 'd8:3b:da:4e:21:7c';
const fixture = JSON.parse(readFileSync(join(__dirname, '..', 'peers', 'xiaozhi-device', 'fixtures', 'ota-check.json'), 'utf8'));

describe('security: the OTA address hands a paired device its token only, and reads its own bodies', function () {
  this.timeout(120_000);
  let nr: NodeRedProcess;
  let device: OtaDevice;
  let token = '';
  before(async () => {
    nr = await startNodeRed();
    await nr.deploy([
      { id: 'tab', type: 'tab', label: 'devices' },
      { id: 'L', type: 'esp32-listener', name: 'Home devices', answerOta: true },
      // A listener serves devices once a node uses it.
      { id: 'in', type: 'esp32-mcp-in', z: 'tab', listener: 'L', events: 'connected', wires: [[]] },
    ]);
    for (let i = 0; i < 150 && (await fetch(`${nr.url}/xiaozhi/ota/`)).status === 404; i++) await new Promise((r) => setTimeout(r, 100));
    device = new OtaDevice({ mac: MAC });
    const joined = device.join(`${nr.url}/xiaozhi/ota/`);
    let code = '';
    while (!code) {
      await new Promise((r) => setTimeout(r, 50));
      code = (await nr.request('GET', '/esp32-listener/L/pairing')).body.waiting?.[0]?.code ?? '';
    }
    assert.equal((await nr.request('POST', '/esp32-listener/L/pair', { code })).status, 200);
    token = String((await joined).nvs.websocket.token);
    assert.ok(token.length >= 32);
  });
  after(async () => nr?.stop());

  /** An OTA check as anyone can send it: the headers a caller chooses, any body. */
  const check = (headers: Record<string, string>, body = '{}') =>
    fetch(`${nr.url}/xiaozhi/ota/`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('a stranger sending the paired MAC (any Client-Id, or none) gets 403 and no token', async () => {
    const attempts: Array<Record<string, string>> = [{ 'Device-Id': MAC, 'Client-Id': '00000000-dead-4bad-8bad-000000000000' }, { 'Device-Id': MAC }];
    for (const headers of attempts) {
      const res = await check(headers);
      const text = await res.text();
      assert.equal(res.status, 403, text);
      assert.ok(!text.includes(token), 'no token');
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    }
  });

  it('the token with another Client-Id cannot take the device: the WebSocket is refused', async () => {
    await assert.rejects(
      XiaozhiWsDevice.connect({
        url: String(device.nvs.websocket.url),
        token,
        deviceId: MAC,
        clientId: '00000000-dead-4bad-8bad-000000000000',
        fixture: ottoRobot(),
      }),
    );
    for (let i = 0; i < 50 && !nr.log.some((l) => l.includes('paired with another board')); i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(
      nr.log.some((l) => l.includes('paired with another board')),
      nr.log.filter((l) => /refused/.test(l)).join('\n'),
    );
    const real = await XiaozhiWsDevice.connect({ url: String(device.nvs.websocket.url), token, deviceId: MAC, clientId: device.uuid, fixture: ottoRobot() });
    real.close();
  });

  it("the firmware's body with a quote in the Wi-Fi name is answered (its code, no 400 page); 30,000 levels get a short answer, no stack", async () => {
    const headers = Object.fromEntries(
      (fixture.request.headers as Array<[string, string]>).filter(([k]) => !/^(host|content-length|connection|content-type)$/i.test(k)),
    );
    const broken = (fixture.request.body_raw as string).replace('"ssid":"HomeWiFi"', '"ssid":"Home"WiFi"');
    const stranger = { ...headers, 'Device-Id': '02:aa:bb:cc:dd:01', 'Client-Id': '0f0e0d0c-0b0a-4908-8706-0504030201ff' };
    const res = await check(stranger, broken);
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.match(body.activation.code, /^\d{6}$/);
    const deep = await check({ ...stranger, 'Device-Id': '02:aa:bb:cc:dd:02' }, '['.repeat(30_000) + ']'.repeat(30_000));
    const text = await deep.text();
    assert.ok(deep.status < 500, `${deep.status} ${text.slice(0, 200)}`);
    assert.doesNotMatch(text, /<html|\bat \w+ \(|node_modules/i);
  });

  it('the pairing route answers an object for a code with 400 and a JSON error, not a 500 page', async () => {
    for (const code of [{ toString: 1 }, ['123456'], null]) {
      const res = await nr.request('POST', '/esp32-listener/L/pair', { code });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body.error, /code as text/);
    }
  });
});
