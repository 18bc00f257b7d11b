// A stock device joins a real Node-RED by one address (docs/esp32.md "Join a stock device"): the
// simulator performs the firmware's OTA check byte for byte (fixtures/ota-check.json), speaks its
// code and polls …/activate; a person pairs it with the code (the admin route the listener's dialog
// calls); the device then stores its own token and connects with exactly what it stored, over
// WebSocket and over mqtt-gateway. Tools are listed and a call answered; after a restart the device
// comes back with its stored token; unpaired, it is cut off and refused. A second device whose code
// nobody enters never gets a token, and no token or code shows up in the log or the flow file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../peers/free-port';
import { OtaDevice, XiaozhiMqttDevice, XiaozhiWsDevice, ottoRobot } from '../peers/xiaozhi-device';
import { startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';

const MAC = 'd8:3b:da:4e:21:7c';
const OTHER = 'aa:bb:cc:00:11:22';

function flow(listener: Record<string, unknown>): FlowNode[] {
  return [
    { id: 'tab', type: 'tab', label: 'devices' },
    { id: 'L', type: 'esp32-listener', name: 'Home devices', answerOta: true, ...listener },
    { id: 'dev', type: 'mcp-server', name: 'device', transport: 'esp32', listener: 'L', deviceId: '' },
    { id: 'in', type: 'esp32-mcp-in', z: 'tab', listener: 'L', events: 'pairing\nconnected', x: 120, y: 60, wires: [['events']] },
    { id: 'events', type: 'debug', z: 'tab', name: 'events', complete: 'true', x: 320, y: 60, wires: [] },
    { id: 'ask', type: 'inject', z: 'tab', payload: '{"volume":40}', payloadType: 'json', props: [{ p: 'payload' }], x: 120, y: 140, wires: [['call']] },
    { id: 'call', type: 'mcp-call-tool', z: 'tab', server: 'dev', tool: 'self.audio_speaker.set_volume', x: 320, y: 140, wires: [['answer'], []] },
    { id: 'answer', type: 'debug', z: 'tab', name: 'answer', complete: 'true', x: 520, y: 140, wires: [] },
  ];
}

/** Runs the device's join loop while a person reads the code from the dialog's route and types it in. */
async function joinAndPair(nr: NodeRedProcess, device: OtaDevice, otaUrl: string) {
  const joined = device.join(otaUrl);
  let code = '';
  for (const started = Date.now(); !code; await new Promise((r) => setTimeout(r, 50))) {
    const list = await nr.request('GET', '/esp32-listener/L/pairing');
    code = list.body.waiting?.find((w: any) => w.id === device.identity.mac)?.code ?? '';
    if (Date.now() - started > 20_000) throw new Error(`no waiting device: ${list.text}`);
  }
  const paired = await nr.request('POST', '/esp32-listener/L/pair', { code });
  assert.equal(paired.status, 200, paired.text);
  assert.deepEqual(Object.keys(paired.body.device).sort(), ['board', 'clientId', 'id', 'pairedAt', 'version']);
  return { result: await joined, code };
}

// websocket on Node-RED's port (OTA on Node-RED's port), websocket on a port of its own (the Home
// Assistant add-on's way in: the OTA check is answered on that port too), and the mqtt-gateway.
for (const variant of ['websocket', 'websocket-own-port', 'mqtt-gateway'] as const) {
  const transport = variant === 'mqtt-gateway' ? 'mqtt-gateway' : 'websocket';
  const ownPort = variant !== 'websocket';
  describe(`esp32-listener answers a stock device's OTA check and pairs it by its code (${variant})`, function () {
    this.timeout(120_000);
    let nr: NodeRedProcess;
    let userDir: string;
    let gatewayPort = 0;
    let listener: Record<string, unknown>;
    const open: Array<{ close(): unknown }> = [];
    let token = '';
    let device: OtaDevice;
    let code = '';

    before(async () => {
      userDir = mkdtempSync(join(tmpdir(), 'ota-pairing-'));
      gatewayPort = await freePort();
      listener =
        variant === 'websocket'
          ? { transport, path: '/xiaozhi/v1/' }
          : variant === 'websocket-own-port'
            ? { transport, path: '/xiaozhi/v1/', port: gatewayPort, bind: '127.0.0.1' }
            : { transport, port: gatewayPort, bind: '127.0.0.1', udpHost: '127.0.0.1' };
      nr = await startNodeRed({ userDir });
      await nr.deploy(flow(listener));
    });
    afterEach(async () => {
      for (const c of open.splice(0)) await c.close();
    });
    after(async () => {
      await nr?.stop();
      rmSync(userDir, { recursive: true, force: true });
    });

    const otaUrl = () => (variant === 'websocket-own-port' ? `http://127.0.0.1:${gatewayPort}/xiaozhi/ota/` : `${nr.url}/xiaozhi/ota/`);
    /** The deploy answers before the flow's nodes have started: wait until the listener answers its address. */
    async function untilOtaAnswers(): Promise<Response> {
      for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
        const res = await fetch(otaUrl()).catch(() => undefined);
        if ((res && res.status !== 404) || Date.now() - started > 15_000) return res!;
      }
    }
    // The firmware sends its board uuid as Client-Id on the WebSocket, the same as in its OTA check.
    async function connect(nvs: OtaDevice['nvs'], mac = MAC, clientId = new OtaDevice({ mac }).uuid) {
      if (transport === 'websocket') {
        const d = await XiaozhiWsDevice.connect({
          url: String(nvs.websocket.url),
          token: String(nvs.websocket.token),
          deviceId: mac,
          clientId,
          fixture: ottoRobot(),
        });
        open.push({ close: () => d.close() });
        return d;
      }
      const m = nvs.mqtt;
      const d = await XiaozhiMqttDevice.connect({
        brokerUrl: `mqtt://${m.endpoint}`,
        deviceId: mac,
        mode: 'stock',
        fixture: ottoRobot(),
        clientId: String(m.client_id),
        username: String(m.username),
        password: String(m.password),
        publishTopic: String(m.publish_topic),
      });
      open.push({ close: () => d.end() });
      return d;
    }
    async function toolsListed(): Promise<number> {
      for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
        const devices = await nr.request('GET', '/esp32-listener/L/devices');
        const d = devices.body.devices?.find((x: any) => x.id === MAC && x.state === 'ready');
        if (d) return d.toolCount;
        if (Date.now() - started > 15_000) throw new Error(`device never ready: ${devices.text}`);
      }
    }

    it('GET on the OTA address says what it is for', async () => {
      const res = await untilOtaAnswers();
      assert.equal(res.status, 200);
      // The listener named once, with Node-RED once ("Node-RED (Node-RED Home devices)" before).
      assert.match(await res.text(), /^Node-RED Home devices answers xiaozhi devices' OTA check here/);
    });

    it('an unpaired device speaks its code, is paired by it, stores its own token and connects with exactly that: tools listed, a call answered', async () => {
      device = new OtaDevice({ mac: MAC });
      const pairingMessage = nr.debug.next('events', (m) => m.value?.topic === 'pairing');
      const joined = await joinAndPair(nr, device, otaUrl());
      code = joined.code;
      const { result } = joined;
      assert.deepEqual(result.spoken.slice(0, 1), [code], 'the device spoke the code it was given');
      assert.ok(result.activations.some((a) => a.status === 202) || result.activations.at(-1)?.status === 200);
      assert.equal(result.activations.at(-1)!.status, 200, 'the activate poll ends with 200 once paired');
      assert.equal(result.protocol, transport === 'websocket' ? 'websocket' : 'mqtt');
      const message = await pairingMessage;
      assert.deepEqual(message.value.payload, { code, device: { id: MAC, board: 'otto-robot', version: '2.4.2' } });
      // The answers were 200 with a Content-Length (the firmware reads no chunked OTA answer) and the firmware version echoed.
      const last = result.checks.at(-1)!;
      assert.equal(last.status, 200);
      assert.ok(last.headers['content-length'], last.raw);
      assert.deepEqual(result.firmware, { version: '2.4.2', url: '' });
      assert.equal(typeof result.serverTime?.timestamp, 'number');
      if (transport === 'websocket') {
        assert.equal(result.nvs.websocket.url, `ws://127.0.0.1:${ownPort ? gatewayPort : new URL(nr.url).port}/xiaozhi/v1/`);
        token = String(result.nvs.websocket.token);
      } else {
        const m = result.nvs.mqtt;
        assert.equal(m.endpoint, `127.0.0.1:${gatewayPort}`);
        assert.equal(m.subscribe_topic, 'devices/p2p/d8_3b_da_4e_21_7c');
        token = String(m.password);
      }
      assert.ok(token.length >= 32, 'a token of its own');

      await connect(result.nvs);
      assert.ok((await toolsListed()) > 0);
      nr.debug.clear();
      await nr.inject('ask');
      const answer = await nr.debug.next('answer');
      assert.deepEqual(answer.value.mcp.arguments, { volume: 40 });
      assert.deepEqual(nr.debug.errors(), []);
    });

    it('a second device nobody pairs gets no token and is refused', async () => {
      const stranger = new OtaDevice({ mac: OTHER, uuid: '11111111-2222-4333-8444-555555555555' }, 0.001);
      const result = await stranger.join(otaUrl(), { maxRounds: 2 });
      assert.equal(result.spoken.length, 2, 'it keeps speaking its code');
      assert.equal(result.spoken[0], result.spoken[1], 'the same code at every check until it expires');
      assert.ok(result.activations.every((a) => a.status === 202));
      const stored = transport === 'websocket' ? result.nvs.websocket.token : result.nvs.mqtt.password;
      assert.equal(stored, '', 'no token');
      await assert.rejects(connect(result.nvs, OTHER));
    });

    it('a wrong code pairs nothing and says the same for any wrong code', async () => {
      const wrong = await nr.request('POST', '/esp32-listener/L/pair', { code: '000000' });
      const junk = await nr.request('POST', '/esp32-listener/L/pair', { code: 'x' });
      assert.equal(wrong.status, 404);
      assert.equal(junk.status, 404);
      assert.equal(wrong.text, junk.text);
      const used = await nr.request('POST', '/esp32-listener/L/pair', { code });
      assert.equal(used.status, 404, 'a code works once');
    });

    it('after a restart the device comes back with its stored token and is accepted', async () => {
      await nr.stop();
      nr = await startNodeRed({ userDir });
      await untilOtaAnswers();
      // The same device, its NVS as it was: it spoke one code once, and checks again after its reboot.
      const spokenBefore = device.spoken.length;
      const again = await device.join(otaUrl());
      assert.equal(again.spoken.length, spokenBefore, 'no code: it is still paired');
      const answered = JSON.parse(again.checks.at(-1)!.body);
      const section = transport === 'websocket' ? answered.websocket : answered.mqtt;
      assert.ok(!('token' in section) && !('password' in section), `the token, used once, is not sent again: ${JSON.stringify(section)}`);
      const stored = transport === 'websocket' ? again.nvs.websocket.token : again.nvs.mqtt.password;
      assert.equal(stored, token, 'the same token as before the restart');
      await connect(again.nvs);
      assert.ok((await toolsListed()) > 0);
    });

    it('unpair: the open connection is closed at once and the token refused; the device gets a code again', async () => {
      const { nvs } = await device.join(otaUrl());
      const connected = await connect(nvs);
      await toolsListed();
      const closed =
        transport === 'websocket'
          ? (connected as XiaozhiWsDevice).closed
          : new Promise<void>((resolve) => (connected as XiaozhiMqttDevice).client.once('close', () => resolve()));
      const unpaired = await nr.request('POST', '/esp32-listener/L/unpair', { device: MAC });
      assert.equal(unpaired.status, 200, unpaired.text);
      await closed;
      await assert.rejects(connect(nvs));
      const check = await new OtaDevice({ mac: MAC }, 0.001).join(otaUrl(), { maxRounds: 1 });
      assert.equal(check.spoken.length, 1, 'a code again');
    });

    it('no token or code in the log or the flow file', async () => {
      const flows = await nr.request('GET', '/flows');
      for (const secret of [token, code]) {
        assert.ok(!flows.text.includes(secret), 'flow file');
        for (const line of nr.log) assert.ok(!line.includes(secret), line);
      }
    });
  });
}

describe('esp32-listener offers one firmware image, served with a Content-Length and nothing else', function () {
  this.timeout(60_000);
  let nr: NodeRedProcess;
  let userDir: string;
  const image = Buffer.alloc(300 * 1024 + 7, 0xe9); // an app image starts with 0xE9

  before(async () => {
    userDir = mkdtempSync(join(tmpdir(), 'ota-firmware-'));
    writeFileSync(join(userDir, 'xiaozhi-2.5.0.bin'), image);
    nr = await startNodeRed({ userDir });
    const listener = { transport: 'websocket', path: '/xiaozhi/v1/', firmwareFile: 'xiaozhi-2.5.0.bin', firmwareBoard: 'otto-robot', firmwareVersion: '2.5.0' };
    await nr.deploy(flow(listener));
  });
  after(async () => {
    await nr?.stop();
    rmSync(userDir, { recursive: true, force: true });
  });

  it('a device of that board on an older version is offered it, and downloads it as the firmware does (bare GET, Content-Length)', async () => {
    const device = new OtaDevice({ mac: MAC });
    let offered: any;
    for (const started = Date.now(); !offered; await new Promise((r) => setTimeout(r, 50))) {
      const { json } = await device.check(`${nr.url}/xiaozhi/ota/`);
      offered = json?.firmware?.url ? json.firmware : undefined;
      if (Date.now() - started > 15_000) throw new Error('no firmware offered');
    }
    assert.equal(offered.version, '2.5.0');
    const url = new URL(offered.url);
    assert.equal(url.pathname, '/xiaozhi/ota/firmware.bin');
    // Ota::Upgrade: a bare GET with Host and Connection: close only.
    const answer = await rawBinaryGet(url);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-length'], String(image.length));
    assert.equal(answer.headers['transfer-encoding'], undefined, 'not chunked');
    assert.ok(answer.body.equals(image), 'the bytes of the file');
    const elsewhere = await rawBinaryGet(new URL('/xiaozhi/ota/../settings.js', url));
    assert.notEqual(elsewhere.status, 200);
    const traversal = await rawBinaryGet(new URL(`${url.origin}/xiaozhi/ota/firmware.bin/../../flows.json`));
    assert.ok(!traversal.body.toString('utf8').includes('esp32-listener'), 'nothing but the image is served');
  });

  it('a device already on that version is offered nothing', async () => {
    const device = new OtaDevice({ mac: MAC, version: '2.5.0' });
    const { json } = await device.check(`${nr.url}/xiaozhi/ota/`);
    assert.deepEqual(json?.firmware, { version: '2.5.0', url: '' });
  });
});

/** GET as the firmware's HTTP client sends it: Host and Connection: close, nothing else. */
function rawBinaryGet(url: URL): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 80) });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: all.subarray(split + 4) });
    });
    socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`);
  });
}
