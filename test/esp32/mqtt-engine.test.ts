// MQTT client mode against a broker the test starts (a plain aedes broker: it delivers only to
// subscribers, so the simulated device subscribes to its topic), and gateway mode with a stock
// device that never subscribes.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createEsp32ToolProvider } from '../../src/esp32/provider/esp32-tool-provider';
import type { MqttGatewayListener } from '../../src/esp32/carriage/mqtt-gateway-listener';
import { lichuangDev, ottoRobot, XiaozhiMqttDevice } from '../peers/xiaozhi-device';
import { until } from '../helpers/wait';
import { DEVICE_TOKEN, LICHUANG_ID, OTTO_ID, rejection, startListener, waitForEvent } from './helpers';

const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;

async function startPlainBroker(): Promise<{ url: string; subscribed: string[]; close(): Promise<void> }> {
  const { Aedes } = await importEsm('aedes');
  const broker = await Aedes.createBroker();
  // Every topic filter a client has subscribed to, so a spec can wait for the listener's.
  const subscribed: string[] = [];
  broker.on('subscribe', (subs: Array<{ topic: string }>) => subscribed.push(...subs.map((x) => x.topic)));
  const server: Server = createServer(broker.handle);
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => (sockets.add(s), s.on('close', () => sockets.delete(s))));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`,
    subscribed,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => broker.close(r));
      await new Promise((r) => server.close(r));
    },
  };
}

describe('esp32 engine: MQTT client mode', () => {
  let broker: Awaited<ReturnType<typeof startPlainBroker>>;
  const devices: XiaozhiMqttDevice[] = [];
  beforeEach(async () => {
    broker = await startPlainBroker();
  });
  afterEach(async () => {
    for (const d of devices.splice(0)) await d.end();
    await broker.close();
  });

  it('reaches an allow-listed device that subscribes to devices/p2p/<mac_>, lists and calls its tools', async () => {
    const device = await XiaozhiMqttDevice.connect({ brokerUrl: broker.url, deviceId: OTTO_ID, mode: 'subscribing', fixture: ottoRobot() });
    devices.push(device);
    const { shared, listener, events } = await startListener({ transport: 'mqtt', broker: broker.url, allow: [OTTO_ID], requestTimeoutMs: 3000 });
    try {
      const tools = await waitForEvent(listener, events, (e) => e.topic === 'tools');
      assert.equal(tools.device.transport, 'mqtt');
      assert.equal((tools.payload as any[]).length, 20);
      assert.ok(device.fromServer.every((m) => m.topic === 'devices/p2p/d8_3b_da_4e_21_7c'));
      const p = createEsp32ToolProvider({ id: 's', name: 'mqtt device', source: shared, timeoutMs: 3000 });
      assert.equal((await p.listTools()).tools.length, 13);
      await p.callTool('self.audio_speaker.set_volume', { volume: 40 });
      assert.equal(device.firmware.state.volume, 40);
      const err = await rejection(p.callTool('self.audio_speaker.set_volume', { volume: 101 }));
      assert.match(err.message, /Value exceeds maximum allowed: 100/);
      // a wake-up and a goodbye end only the audio session; MCP keeps working while the device is idle
      device.sendHello();
      device.sendGoodbye();
      await p.callTool('self.audio_speaker.set_volume', { volume: 41 });
      assert.equal(device.firmware.state.volume, 41);
      await p.close();
    } finally {
      await shared.close();
    }
  });

  it('learns devices from a {mac_} in the device→server topic', async () => {
    const device = await XiaozhiMqttDevice.connect({
      brokerUrl: broker.url,
      deviceId: LICHUANG_ID,
      mode: 'subscribing',
      publishTopic: 'xiaozhi/a0_b1_c2_d3_e4_f5/up',
      fixture: lichuangDev(),
    });
    devices.push(device);
    const { shared, listener, events } = await startListener({
      transport: 'mqtt',
      broker: broker.url,
      publishTopic: 'xiaozhi/{mac_}/up',
      requestTimeoutMs: 3000,
    });
    try {
      // A hello sent before the listener has subscribed would be lost (MQTT keeps nothing for later subscribers).
      await until('the listener to subscribe to xiaozhi/+/up', () => broker.subscribed.includes('xiaozhi/+/up'));
      device.sendHello();
      const tools = await waitForEvent(listener, events, (e) => e.topic === 'tools');
      assert.equal(tools.device.id, LICHUANG_ID);
      assert.equal((tools.payload as any[]).length, 14);
    } finally {
      await shared.close();
    }
  });
});

describe('esp32 engine: MQTT gateway mode', () => {
  it('talks MCP with stock devices that never subscribe, each on its own connection', async () => {
    const { shared, listener, events } = await startListener({
      transport: 'mqtt-gateway',
      bind: '127.0.0.1',
      port: 0,
      tokens: [DEVICE_TOKEN],
      requestTimeoutMs: 3000,
    });
    const gw = listener as MqttGatewayListener;
    const url = `mqtt://127.0.0.1:${gw.port}`;
    const otto = await XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: OTTO_ID, mode: 'stock', password: DEVICE_TOKEN, fixture: ottoRobot() });
    const lich = await XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: LICHUANG_ID, mode: 'stock', password: DEVICE_TOKEN, fixture: lichuangDev() });
    try {
      await waitForEvent(listener, events, (e) => e.topic === 'tools' && e.device.id === OTTO_ID);
      await waitForEvent(listener, events, (e) => e.topic === 'tools' && e.device.id === LICHUANG_ID);
      const connected = events.find((e) => e.topic === 'connected' && e.device.id === OTTO_ID)!;
      assert.equal(connected.device.transport, 'mqtt-gateway');
      assert.match(connected.device.clientId!, /^GID_test@@@d8_3b_da_4e_21_7c@@@/);
      assert.equal(otto.fromServer[0].topic, 'devices/p2p/d8_3b_da_4e_21_7c');
      assert.equal(otto.fromServer[0].frame.payload.method, 'initialize');
      const p = createEsp32ToolProvider({ id: 's', name: 'gw', source: shared, timeoutMs: 3000 });
      await p.callTool('self.audio_speaker.set_volume', { volume: 33 }, { context: { deviceId: LICHUANG_ID } });
      assert.equal(lich.firmware.state.volume, 33);
      assert.equal(otto.firmware.state.volume, 70);
      // hello/goodbye reach the flow (attributed by connection); MCP goes on after the goodbye
      lich.sendHello();
      lich.sendGoodbye();
      const bye = await waitForEvent(listener, events, (e) => e.topic === 'message' && (e.payload as any).type === 'goodbye');
      assert.equal(bye.device.id, LICHUANG_ID);
      assert.ok(events.some((e) => e.topic === 'message' && (e.payload as any).type === 'hello' && e.device.id === LICHUANG_ID));
      await p.callTool('self.audio_speaker.set_volume', { volume: 34 }, { context: { deviceId: LICHUANG_ID } });
      assert.equal(lich.firmware.state.volume, 34);
      // the device leaving fails its calls and is reported
      await otto.end();
      await waitForEvent(listener, events, (e) => e.topic === 'disconnected' && e.device.id === OTTO_ID);
      const gone = await rejection(p.callTool('self.get_device_status', {}, { context: { deviceId: OTTO_ID } }));
      assert.equal(gone.code, 'ESP32_UNKNOWN_DEVICE');
      await p.close();
    } finally {
      await lich.end();
      await shared.close();
    }
  });

  it('refuses devices outside the allow list and wrong passwords; closing leaves the port free', async () => {
    const { shared, listener } = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, allow: [OTTO_ID], tokens: ['s3cret'] });
    const port = (listener as MqttGatewayListener).port!;
    const url = `mqtt://127.0.0.1:${port}`;
    try {
      const notAllowed = await rejection(
        XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: LICHUANG_ID, mode: 'stock', password: 's3cret', fixture: lichuangDev() }),
      );
      assert.match(String(notAllowed.message), /Not authorized|Bad username or password|closed/i);
      const badPassword = await rejection(
        XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: OTTO_ID, mode: 'stock', password: 'nope', fixture: ottoRobot() }),
      );
      assert.ok(badPassword instanceof Error);
      const ok = await XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: OTTO_ID, mode: 'stock', password: 's3cret', fixture: ottoRobot() });
      await ok.end();
    } finally {
      await shared.close();
    }
    // nothing is left listening: the same port can be bound again
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
    await new Promise((r) => probe.close(r));
  });
});
