// The WebSocket side of the esp32 engine against the firmware simulator on real sockets.
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { createEsp32ToolProvider } from '../../src/esp32/provider/esp32-tool-provider';
import { lichuangDev, ottoRobot, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { until } from '../helpers/wait';
import { DEVICE_TOKEN, LICHUANG_ID, OTTO_ID, rejection, startWsRig, waitForEvent, type WsRig } from './helpers';

describe('esp32 engine: WebSocket devices', () => {
  let rig: WsRig;
  const devices: XiaozhiWsDevice[] = [];
  const connect = async (opts: Partial<Parameters<typeof XiaozhiWsDevice.connect>[0]> = {}) => {
    const d = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot(), ...opts });
    devices.push(d);
    return d;
  };
  const ready = (id = OTTO_ID) => waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.id === id);
  const provider = (extra: { deviceId?: string; timeoutMs?: number } = {}) =>
    createEsp32ToolProvider({ id: 'srv', name: 'esp32 server', source: rig.shared, timeoutMs: 5000, ...extra });

  beforeEach(async () => {
    rig = await startWsRig();
  });
  afterEach(async () => {
    for (const d of devices.splice(0)) d.close();
    await rig.close();
  });

  it('answers the hello with transport, session_id and audio_params, then connected and every tool of both pages', async () => {
    const device = await connect();
    const hello = await device.serverHello;
    assert.equal(hello.type, 'hello');
    assert.equal(hello.transport, 'websocket');
    assert.match(hello.session_id, /^[0-9a-f-]{36}$/);
    assert.equal(hello.audio_params.format, 'opus');
    const tools = await ready();
    const connected = rig.events.find((e) => e.topic === 'connected')!;
    assert.ok(rig.events.indexOf(connected) < rig.events.indexOf(tools), 'connected comes first');
    assert.deepEqual(connected.device.serverInfo, { name: 'otto-robot', version: '2.4.2' });
    assert.equal(tools.device.sessionId, hello.session_id);
    assert.equal(tools.device.clientId, device.clientId);
    assert.equal(tools.device.transport, 'websocket');
    assert.deepEqual(
      (tools.payload as any[]).map((t) => t.name),
      ottoRobot().tools.map((t) => t.name),
    );
    // what the device was asked: initialize, then each page with a string cursor and a real boolean
    const lists = device.firmware.received.filter((r) => r.method === 'tools/list');
    assert.deepEqual(
      lists.map((r) => r.params),
      [
        { cursor: '', withUserTools: true },
        { cursor: 'self.battery.get_level', withUserTools: true },
      ],
    );
    assert.equal(device.firmware.received[0].method, 'initialize');
    // the session id travels in every MCP envelope the server sends
    assert.ok(device.fromServer.filter((f) => f.type === 'mcp').every((f) => f.session_id === hello.session_id));
  });

  it('lists AI tools only unless userOnly, and reports the device as server identity', async () => {
    await connect();
    await ready();
    const p = provider();
    const ai = await p.listTools();
    assert.equal(ai.tools.length, 13);
    assert.equal(ai.pages, 2);
    assert.deepEqual(ai.server, { id: 'srv', name: 'esp32 server', protocolVersion: '2024-11-05', serverInfo: { name: 'otto-robot', version: '2.4.2' } });
    assert.equal((await p.listTools({ userOnly: true })).tools.length, 20);
    assert.deepEqual(p.state(), { kind: 'ready', toolCount: 13 });
    assert.ok(await p.findTool('self.reboot'), 'user-only tools stay callable');
    await p.close();
  });

  it('calls a tool; firmware errors (range, unknown tool) reject with the firmware message', async () => {
    const device = await connect();
    await ready();
    const p = provider();
    const ok = await p.callTool('self.audio_speaker.set_volume', { volume: 42 });
    assert.deepEqual(ok, { content: [{ type: 'text', text: 'true' }], isError: false });
    assert.equal(device.firmware.state.volume, 42);
    const range = await rejection(p.callTool('self.audio_speaker.set_volume', { volume: 150 }));
    assert.equal(range.code, 'DEVICE_ERROR');
    assert.match(range.message, /Value exceeds maximum allowed: 100/);
    const unknown = await rejection(p.callTool('self.light.turn_on', {}));
    assert.match(unknown.message, /Unknown tool: self\.light\.turn_on/);
    // the firmware does not JSON-escape error messages: the broken frame is still understood
    const quoted = await rejection(p.callTool('bad"name', {}));
    assert.match(quoted.message, /Unknown tool: bad"name/);
    await p.close();
  });

  it('a request the device silently drops times out with a clear error', async () => {
    await connect({ firmware: { hangingTools: ['self.otto.action'] } });
    await ready();
    const p = provider({ timeoutMs: 300 });
    const err = await rejection(p.callTool('self.otto.action', { action: 'walk' }));
    assert.equal(err.code, 'TIMEOUT');
    assert.match(err.message, /did not answer tools\/call "self\.otto\.action" within 0\.3 s/);
    await p.close();
  });

  it('the device dropping TCP mid-call fails the pending call at once (1006), not at its timeout', async () => {
    const device = await connect({ firmware: { hangingTools: ['self.otto.action'] } });
    await ready();
    const p = provider({ timeoutMs: 30_000 });
    const call = rejection(p.callTool('self.otto.action', { action: 'walk' }));
    await until('the call to reach the device', () => device.firmware.received.some((r) => r.method === 'tools/call'));
    device.dropTcp();
    const err = await call;
    assert.equal(err.code, 'DEVICE_DISCONNECTED');
    assert.match(err.message, /dropped the connection \(1006\)/);
    const gone = await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'disconnected');
    assert.equal((gone.payload as any).code, 1006);
    await p.close();
  });

  it('a reconnect is a new session with its tools listed again', async () => {
    const first = await connect();
    const firstTools = await ready();
    first.dropTcp();
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'disconnected');
    rig.events.length = 0;
    const second = await connect();
    const again = await ready();
    assert.notEqual(again.device.sessionId, firstTools.device.sessionId);
    assert.equal((await second.serverHello).session_id, again.device.sessionId);
    assert.equal(second.firmware.received[0].method, 'initialize');
    assert.equal((again.payload as any[]).length, 20);
  });

  it('skips binary frames and drops malformed JSON without closing the connection', async () => {
    const device = await connect();
    await ready();
    device.sendBinary(Buffer.from('5803fe2b9a7c11e0d4', 'hex'));
    device.sendText('{"type":"mcp","payload":');
    device.sendText('not json at all');
    device.sendText('{"no_type":true}');
    device.sendText(`{"session_id":"${device.sessionId}","type":"listen","state":"start","mode":"auto"}`);
    const listen = await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'message');
    assert.deepEqual(listen.payload, { session_id: device.sessionId, type: 'listen', state: 'start', mode: 'auto' });
    const p = provider();
    assert.equal((await p.callTool('self.get_device_status', {})).content.length, 1);
    assert.equal(device.ws.readyState, WebSocket.OPEN);
    await p.close();
  });

  it('passes device-initiated notifications on', async () => {
    const device = await connect();
    await ready();
    device.sendMcp('{"jsonrpc":"2.0","method":"notifications/state_changed","params":{"newState":"idle","oldState":"connecting"}}');
    const n = await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'notification');
    assert.deepEqual(n.payload, { jsonrpc: '2.0', method: 'notifications/state_changed', params: { newState: 'idle', oldState: 'connecting' } });
  });

  it('tools/list_changed from a custom board lists the tools again', async () => {
    const device = await connect();
    await ready();
    rig.events.length = 0;
    device.firmware.fixture.tools = device.firmware.fixture.tools.slice(0, 3);
    device.sendMcp('{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}');
    const tools = await ready();
    assert.deepEqual(
      (tools.payload as any[]).map((t) => t.name),
      ['self.get_device_status', 'self.audio_speaker.set_volume', 'self.screen.set_brightness'],
    );
    const p = provider();
    assert.equal((await p.listTools()).tools.length, 3);
    await p.close();
  });

  it('the same device connecting again replaces its older connection', async () => {
    const old = await connect();
    const firstTools = await ready();
    rig.events.length = 0;
    const fresh = await connect();
    const tools = await ready();
    assert.notEqual(tools.device.sessionId, firstTools.device.sessionId);
    await old.closed;
    assert.equal(rig.listener.registry.size, 1);
    const p = provider();
    await p.callTool('self.audio_speaker.set_volume', { volume: 3 });
    assert.equal(fresh.firmware.state.volume, 3);
    assert.equal(old.firmware.state.volume, 70);
    await p.close();
  });

  it('closes a frame over 1 MiB with 1009', async () => {
    const device = await connect();
    await ready();
    device.sendText('{"type":"listen","pad":"' + 'x'.repeat(1024 * 1024) + '"}');
    const { code } = await device.closed;
    assert.equal(code, 1009);
  });

  it('replies that arrive out of order settle the right calls', async () => {
    await connect({ firmware: { callDelayMs: (_n, args) => (args.volume === 10 ? 150 : 0) } });
    await ready();
    const p = provider();
    const order: number[] = [];
    const slow = p.callTool('self.audio_speaker.set_volume', { volume: 10 }).then((r) => (order.push(10), r));
    const fast = p.callTool('self.get_device_status', {}).then((r) => (order.push(0), r));
    const [a, b] = await Promise.all([slow, fast]);
    assert.deepEqual(order, [0, 10], 'the second call was answered first');
    assert.equal((a.content[0] as any).text, 'true');
    assert.equal(JSON.parse((b.content[0] as any).text).audio_speaker.volume, 70);
    await p.close();
  });

  it('routes two devices by deviceId / context and refuses to guess', async () => {
    const otto = await connect();
    const lich = await connect({ deviceId: LICHUANG_ID, fixture: lichuangDev() });
    await ready(OTTO_ID);
    await ready(LICHUANG_ID);
    const p = provider();
    const ambiguous = await rejection(p.listTools());
    assert.equal(ambiguous.code, 'ESP32_AMBIGUOUS_DEVICE');
    assert.equal((await p.listTools({ context: { deviceId: LICHUANG_ID } })).tools.length, 7);
    assert.equal((await p.listTools({ context: { deviceId: OTTO_ID.toUpperCase() } })).tools.length, 13);
    await p.callTool('self.audio_speaker.set_volume', { volume: 5 }, { context: { deviceId: LICHUANG_ID } });
    assert.equal(lich.firmware.state.volume, 5);
    assert.equal(otto.firmware.state.volume, 70);
    const fixed = provider({ deviceId: OTTO_ID });
    await fixed.callTool('self.audio_speaker.set_volume', { volume: 9 }, { context: { deviceId: LICHUANG_ID } });
    assert.equal(otto.firmware.state.volume, 9, 'the setting wins over the message');
    assert.equal(identityName(fixed), 'otto-robot');
    const unknown = await rejection(p.callTool('self.reboot', {}, { context: { deviceId: '00:11:22:33:44:55' } }));
    assert.equal(unknown.code, 'ESP32_UNKNOWN_DEVICE');
    await p.close();
    await fixed.close();
  });

  it('no device connected → a clear error and an idle state', async () => {
    const p = provider();
    assert.deepEqual(p.state(), { kind: 'idle' });
    const err = await rejection(p.listTools());
    assert.equal(err.code, 'ESP32_NO_DEVICE');
    const states: string[] = [];
    p.onStateChange((s) => states.push(s.kind));
    await connect();
    await ready();
    assert.equal(states.at(-1), 'ready');
    await p.close();
  });

  it('closing the listener closes every device socket', async () => {
    const a = await connect();
    const b = await connect({ deviceId: LICHUANG_ID, fixture: lichuangDev() });
    await ready(OTTO_ID);
    await ready(LICHUANG_ID);
    await rig.listener.close();
    const [ca, cb] = await Promise.all([a.closed, b.closed]);
    assert.equal(ca.code, 1001);
    assert.equal(cb.code, 1001);
    assert.equal(rig.listener.registry.size, 0);
  });
});

function identityName(p: ReturnType<typeof createEsp32ToolProvider>): string | undefined {
  return p.identity().serverInfo?.name;
}

describe('esp32 engine: WebSocket admission', () => {
  let rig: WsRig;
  afterEach(async () => rig?.close());

  it('bad or missing bearer token → HTTP 401; the right one in a header or query parameter is let in', async () => {
    rig = await startWsRig({ tokens: ['test-token', 'other'] });
    const bad = await rejection(XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: 'wrong', fixture: ottoRobot() }));
    assert.equal(bad.status, 401);
    const none = await rejection(XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, fixture: ottoRobot() }));
    assert.equal(none.status, 401);
    const good = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: 'test-token', fixture: ottoRobot() });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    good.close();
    const query = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: LICHUANG_ID, token: 'other', credentialsInQuery: true, fixture: lichuangDev() });
    const t = await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools' && e.device.id === LICHUANG_ID);
    assert.equal(t.device.clientId, query.clientId);
    query.close();
  });

  it('a device outside the allow list is refused (403); a listed one connects', async () => {
    rig = await startWsRig({ allow: [OTTO_ID.toUpperCase()] });
    const refused = await rejection(XiaozhiWsDevice.connect({ url: rig.url, deviceId: LICHUANG_ID, token: DEVICE_TOKEN, fixture: lichuangDev() }));
    assert.equal(refused.status, 403);
    const ok = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    ok.close();
  });

  it('a connection without Device-Id gets HTTP 400', async () => {
    rig = await startWsRig();
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(rig.url, { headers: { Authorization: `Bearer ${DEVICE_TOKEN}` } });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('should not open')));
      ws.once('error', () => undefined);
    });
    assert.equal(status, 400);
  });

  it('offers the vision endpoint in initialize, so the camera tool works; without it the firmware says why', async () => {
    rig = await startWsRig({ vision: { url: 'http://127.0.0.1:9/vision/explain', token: 'vision-token' } });
    const withVision = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    const init = withVision.firmware.received.find((r) => r.method === 'initialize')!;
    assert.deepEqual(init.params.capabilities, { vision: { url: 'http://127.0.0.1:9/vision/explain', token: 'vision-token' } });
    const p = createEsp32ToolProvider({ id: 's', name: 's', source: rig.shared, timeoutMs: 5000 });
    const photo = await p.callTool('self.camera.take_photo', { question: 'what is on the desk?' });
    assert.match((photo.content[0] as any).text, /"success":true/);
    withVision.close();
    await p.close();
    await rig.close();

    rig = await startWsRig();
    const plain = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    const p2 = createEsp32ToolProvider({ id: 's', name: 's', source: rig.shared, timeoutMs: 5000 });
    const err = await rejection(p2.callTool('self.camera.take_photo', { question: 'what?' }));
    assert.match(err.message, /Image explain URL or token is not set/);
    plain.close();
    await p2.close();
  });

  it('leaves other paths to other upgrade listeners', async () => {
    rig = await startWsRig({ path: '/custom/path' });
    // another listener on the same server (core's websocket-listener, say) owns /xiaozhi/v1/
    rig.server.on('upgrade', (req, socket) => {
      if (req.url?.startsWith('/xiaozhi/v1')) socket.end('HTTP/1.1 418 I am the other listener\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    });
    const other = await rejection(
      XiaozhiWsDevice.connect({ url: rig.url.replace('/custom/path', '/xiaozhi/v1/'), deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() }),
    );
    assert.equal(other.status, 418, 'the upgrade was left to the other listener, not answered by ours');
    const ok = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    ok.close();
  });
});

describe('esp32 engine: WebSocket liveness', () => {
  let rig: WsRig;
  afterEach(async () => rig?.close());

  it('a device that stops answering pings (no FIN: power or Wi-Fi lost) is dropped and its calls fail', async () => {
    rig = await startWsRig({ heartbeatMs: 100 });
    const device = await XiaozhiWsDevice.connect({
      url: rig.url,
      deviceId: OTTO_ID,
      token: DEVICE_TOKEN,
      fixture: ottoRobot(),
      firmware: { hangingTools: ['self.otto.stop'] },
    });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    const p = createEsp32ToolProvider({ id: 's', name: 's', source: rig.shared, timeoutMs: 30_000 });
    const call = rejection(p.callTool('self.otto.stop', {}));
    (device.ws as any)._socket.pause(); // the device reads nothing more: pings go unanswered
    const err = await call;
    assert.equal(err.code, 'DEVICE_DISCONNECTED');
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'disconnected');
    device.close();
    await p.close();
  });

  it('a device that answers pings stays connected', async () => {
    rig = await startWsRig({ heartbeatMs: 50 });
    const device = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    await waitForEvent(rig.listener, rig.events, (e) => e.topic === 'tools');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(device.ws.readyState, WebSocket.OPEN);
    assert.ok(!rig.events.some((e) => e.topic === 'disconnected'));
    device.close();
  });

  it('a connection that never says hello is closed and never routed to', async () => {
    rig = await startWsRig({ helloTimeoutMs: 100 });
    const silent = await XiaozhiWsDevice.connect({ url: rig.url, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot(), sendHello: false });
    await silent.closed;
    // the server side learns of the close on its own socket a moment later
    while (rig.listener.registry.size > 0) await new Promise((r) => rig.listener.registry.once('change', r));
    assert.equal(rig.listener.registry.size, 0);
    assert.deepEqual(rig.events, [], 'nothing announced for a device that never became one');
  });
});
