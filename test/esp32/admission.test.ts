// Who gets in (docs/esp32.md, "Who may connect"), on real sockets: a default listener refuses every device, tokens
// are needed unless `anonymous`, a connection without a token cannot take over a connected device
// id, and a repeated hello on one connection is answered once. WebSocket and the MQTT gateway.
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { randomUUID } from 'node:crypto';
import { createEsp32ToolProvider } from '../../src/esp32/provider/esp32-tool-provider';
import type { MqttGatewayListener } from '../../src/esp32/carriage/mqtt-gateway-listener';
import { lichuangDev, ottoRobot, XiaozhiMqttDevice, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { DEVICE_TOKEN, OTTO_ID, rejection, startListener, startWsRig, waitForEvent, type WsRig } from './helpers';

describe('esp32 admission: WebSocket', () => {
  let rig: WsRig | undefined;
  const devices: XiaozhiWsDevice[] = [];
  const connect = async (opts: Partial<Parameters<typeof XiaozhiWsDevice.connect>[0]>) => {
    const d = await XiaozhiWsDevice.connect({ url: rig!.url, deviceId: OTTO_ID, fixture: ottoRobot(), ...opts });
    devices.push(d);
    return d;
  };
  afterEach(async () => {
    for (const d of devices.splice(0)) d.close();
    await rig?.close();
    rig = undefined;
  });

  it('a listener with no tokens and anonymous off refuses every device with HTTP 401, token or not', async () => {
    rig = await startWsRig({ tokens: [] });
    assert.equal((await rejection(connect({}))).status, 401);
    assert.equal((await rejection(connect({ token: 'anything' }))).status, 401);
    assert.equal(rig.listener.registry.size, 0);
    assert.deepEqual(rig.shared.status(), { kind: 'listening', devices: 0, access: 'nobody' });
  });

  it('anonymous accepts a device without a token but still refuses a wrong one', async () => {
    rig = await startWsRig({ tokens: [DEVICE_TOKEN], anonymous: true });
    assert.equal((await rejection(connect({ token: 'wrong' }))).status, 401);
    await connect({});
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    assert.deepEqual(rig.shared.status(), { kind: 'listening', devices: 1, access: 'anonymous' });
  });

  it('a second connection claiming a connected id without a token is refused (409) and the route stays', async () => {
    rig = await startWsRig({ tokens: [DEVICE_TOKEN], anonymous: true });
    const real = await connect({ token: DEVICE_TOKEN });
    const first = await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    const impostor = await rejection(connect({ fixture: lichuangDev() }));
    assert.equal(impostor.status, 409);
    const p = createEsp32ToolProvider({ id: 's', name: 's', source: rig.shared, timeoutMs: 5000 });
    try {
      await p.callTool('self.audio_speaker.set_volume', { volume: 11 });
      assert.equal(real.firmware.state.volume, 11, 'calls still reach the real device');
      assert.equal(rig.listener.registry.get(OTTO_ID)!.sessionId, first.device.sessionId);
      // with the token, a reconnecting device replaces its old connection
      const again = await connect({ token: DEVICE_TOKEN });
      await real.closed;
      await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.sessionId !== first.device.sessionId);
      await p.callTool('self.audio_speaker.set_volume', { volume: 12 });
      assert.equal(again.firmware.state.volume, 12);
    } finally {
      await p.close();
    }
  });

  it('repeated hellos on one connection are answered once and start one handshake', async () => {
    rig = await startWsRig();
    const device = await connect({ token: DEVICE_TOKEN });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    for (let i = 0; i < 50; i++) device.sendText(device.helloFrame());
    // a frame sent after the hellos is handled only after them: its answer proves they were read
    device.sendMcp('{"jsonrpc":"2.0","method":"notifications/state_changed","params":{}}');
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'notification');
    assert.equal(device.fromServer.filter((f) => f.type === 'hello').length, 1);
    assert.equal(device.firmware.received.filter((r) => r.method === 'initialize').length, 1);
  });

  // A browser always sends Origin, the firmware never does: a web page in a LAN user's browser must
  // not register as a device on an anonymous listener.
  it('an anonymous listener refuses a connection carrying Origin (403) and still accepts a device without one', async () => {
    rig = await startWsRig({ tokens: [], anonymous: true });
    assert.equal((await rejection(connect({ origin: 'http://evil.example', credentialsInQuery: true }))).status, 403);
    assert.equal(rig.listener.registry.size, 0);
    await connect({});
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
  });

  it('a browser client with a valid token is let in (query credentials, as browser clients send them)', async () => {
    rig = await startWsRig({ tokens: ['browser-ok-token'], anonymous: true });
    await connect({ origin: 'http://192.168.1.20:8000', credentialsInQuery: true, token: 'browser-ok-token' });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
  });
});

describe('esp32 admission: MQTT gateway', () => {
  const connackCode = async (url: string, password?: string, mac_ = 'd8_3b_da_4e_21_7c') => {
    // The firmware always sends a username (base64 JSON); MQTT 3.1.1 allows no password without one.
    const client = mqtt.connect(url, { clientId: `GID_test@@@${mac_}@@@${randomUUID()}`, username: 'e30=', password, reconnectPeriod: 0, protocolVersion: 4 });
    try {
      return await new Promise<number>((resolve) => {
        client.once('connect', (packet) => resolve(packet.returnCode ?? 0));
        client.once('error', (err: any) => resolve(err.code));
      });
    } finally {
      await client.endAsync(true);
    }
  };

  it('a default gateway (no tokens) answers every device CONNACK 5 "not authorized"', async () => {
    const { shared, listener } = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0 });
    try {
      const url = `mqtt://127.0.0.1:${(listener as MqttGatewayListener).port}`;
      assert.equal(await connackCode(url), 5);
      assert.equal(await connackCode(url, 'some-password'), 5);
      assert.equal(listener.registry.size, 0);
    } finally {
      await shared.close();
    }
  });

  it('with tokens: no or a wrong password is refused (5); the token is accepted', async () => {
    const { shared, listener } = await startListener({ transport: 'mqtt-gateway', bind: '127.0.0.1', port: 0, tokens: [DEVICE_TOKEN] });
    try {
      const url = `mqtt://127.0.0.1:${(listener as MqttGatewayListener).port}`;
      assert.equal(await connackCode(url), 5);
      assert.equal(await connackCode(url, 'wrong'), 5);
      assert.equal(await connackCode(url, DEVICE_TOKEN), 0);
    } finally {
      await shared.close();
    }
  });

  it('anonymous: a second client claiming a connected device id without a token is refused', async () => {
    const { shared, listener, events } = await startListener({
      transport: 'mqtt-gateway',
      bind: '127.0.0.1',
      port: 0,
      anonymous: true,
      tokens: [DEVICE_TOKEN],
      requestTimeoutMs: 3000,
    });
    const url = `mqtt://127.0.0.1:${(listener as MqttGatewayListener).port}`;
    const real = await XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: OTTO_ID, mode: 'stock', fixture: ottoRobot() });
    try {
      await waitForEvent(listener, events, (e) => e.topic === 'tools');
      assert.equal(await connackCode(url), 5);
      const p = createEsp32ToolProvider({ id: 's', name: 's', source: shared, timeoutMs: 3000 });
      await p.callTool('self.audio_speaker.set_volume', { volume: 21 });
      assert.equal(real.firmware.state.volume, 21, 'the route still leads to the first device');
      await p.close();
    } finally {
      await real.end();
      await shared.close();
    }
  });
});
