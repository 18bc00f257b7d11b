// Doors that were open by design and are now closed: one device's token used for another MAC, and
// the editor's Test routes sending a stored secret to whatever URL the request names. (A web page
// posing as a device is refused in test/esp32/admission.test.ts.)
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lichuangDev, ottoRobot, XiaozhiMqttDevice, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { helper, load, startRuntime, stopRuntime } from '../helpers/runtime';
import { LICHUANG_ID, OTTO_ID, rejection, startListener, startWsRig, waitForEvent } from '../esp32/helpers';
import type { MqttGatewayListener } from '../../src/esp32/carriage/mqtt-gateway-listener';

describe('security: a token bound to a MAC serves that device only', () => {
  const bound = [`${OTTO_ID}=otto-own-token`, `${LICHUANG_ID}=lichuang-own-token`];

  it('WebSocket: the right device is accepted; another MAC with that token is refused (403)', async () => {
    const rig = await startWsRig({ tokens: bound, anonymous: false });
    const devices: XiaozhiWsDevice[] = [];
    try {
      devices.push(await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, fixture: ottoRobot(), token: 'otto-own-token' }));
      await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.id === OTTO_ID);
      const stolen = await rejection(XiaozhiWsDevice.connect({ url: rig.url, deviceId: LICHUANG_ID, fixture: lichuangDev(), token: 'otto-own-token' }));
      assert.equal(stolen.status, 403);
      devices.push(await XiaozhiWsDevice.connect({ url: rig.url, deviceId: LICHUANG_ID, fixture: lichuangDev(), token: 'lichuang-own-token' }));
      await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.id === LICHUANG_ID);
    } finally {
      for (const d of devices) d.close();
      await rig.close();
    }
  });

  it('a shared token cannot take over a device that has a token of its own (403 / CONNACK 5); other devices still use it', async () => {
    const tokens = [...bound, 'shared-family-token'];
    const rig = await startWsRig({ tokens, anonymous: false });
    const devices: XiaozhiWsDevice[] = [];
    try {
      const takeover = await rejection(XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, fixture: ottoRobot(), token: 'shared-family-token' }));
      assert.equal(takeover.status, 403);
      devices.push(await XiaozhiWsDevice.connect({ url: rig.url, deviceId: '02:00:00:00:00:01', fixture: lichuangDev(), token: 'shared-family-token' }));
      await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.id === '02:00:00:00:00:01');
      devices.push(await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, fixture: ottoRobot(), token: 'otto-own-token' }));
      await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.id === OTTO_ID);
    } finally {
      for (const d of devices) d.close();
      await rig.close();
    }
    const { shared, listener } = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens, anonymous: false });
    try {
      const brokerUrl = `mqtt://127.0.0.1:${(listener as MqttGatewayListener).port}`;
      await assert.rejects(
        XiaozhiMqttDevice.connect({ brokerUrl, deviceId: OTTO_ID, mode: 'stock', fixture: ottoRobot(), password: 'shared-family-token' }),
        /Not authorized|not authorized|5/,
      );
    } finally {
      await shared.close();
    }
  });

  it('MQTT gateway: another MAC with a bound token gets CONNACK "not authorized"', async () => {
    const { shared, listener } = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens: bound, anonymous: false });
    try {
      const brokerUrl = `mqtt://127.0.0.1:${(listener as MqttGatewayListener).port}`;
      await assert.rejects(
        XiaozhiMqttDevice.connect({ brokerUrl, deviceId: LICHUANG_ID, mode: 'stock', fixture: lichuangDev(), password: 'otto-own-token' }),
        /Not authorized|not authorized|5/,
      );
      const otto = await XiaozhiMqttDevice.connect({ brokerUrl, deviceId: OTTO_ID, mode: 'stock', fixture: ottoRobot(), password: 'otto-own-token' });
      await otto.end();
    } finally {
      await shared.close();
    }
  });
});

/** An HTTP server that records the headers of every request and answers 401. */
async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe("security: the editor's Test routes send a stored secret only where it was deployed to", function () {
  this.timeout(30_000);
  let deployed: Awaited<ReturnType<typeof recorder>>;
  let elsewhere: Awaited<ReturnType<typeof recorder>>;
  const agentNode = require('../../nodes/gemini-agent/index.ts');

  before(async () => {
    await startRuntime();
    deployed = await recorder();
    elsewhere = await recorder();
    await load(
      [
        { id: 'srv', type: 'mcp-server', name: 'ha', transport: 'http', url: `${deployed.url}/api/mcp` },
        { id: 'agent', type: 'gemini-agent', baseUrl: deployed.url, servers: [], wires: [[], []] },
      ],
      { srv: { token: 'stored-server-token' }, agent: { apiKey: 'stored-api-key' } },
      [agentNode],
    );
  });
  after(async () => {
    await stopRuntime();
    for (const r of [deployed, elsewhere]) {
      r.server.closeAllConnections();
      await new Promise((done) => r.server.close(done));
    }
  });

  /** A Test route asked with the stored secret: refused for `elsewhere`, sent for the deployed address. */
  async function storedSecretStaysHome(route: string, bodyFor: (baseUrl: string) => Record<string, unknown>): Promise<void> {
    const other = await helper.request().post(route).send(bodyFor(elsewhere.url)).expect(200);
    assert.equal(other.body.ok, false);
    assert.match(other.body.error, /sent only to the address this node was deployed with/);
    assert.deepEqual(elsewhere.seen, []);
    await helper.request().post(route).send(bodyFor(deployed.url)).expect(200);
  }

  it('Test connection with the stored token and another URL: refused, nothing sent there; the deployed URL gets it', async () => {
    await storedSecretStaysHome('/mcp-server/test', (base) => ({
      id: 'srv',
      config: { transport: 'http', url: `${base}/api/mcp` },
      token: '__PWRD__',
    }));
    assert.ok(deployed.seen.some((h) => h.authorization === 'Bearer stored-server-token'));
  });

  it("gemini-agent's Test prompt with the stored key and another base URL: refused, nothing sent there", async () => {
    await storedSecretStaysHome('/gemini-agent/test', (base) => ({ id: 'agent', apiKey: '__PWRD__', prompt: 'hello', config: { baseUrl: base, servers: [] } }));
    assert.ok(deployed.seen.some((h) => h['x-goog-api-key'] === 'stored-api-key'));
  });
});
