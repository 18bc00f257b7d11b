// esp32-listener and esp32-mcp-in in the real Node-RED runtime, with mcp-server (transport esp32),
// mcp-list-tools and mcp-call-tool, against the device simulator on Node-RED's own HTTP server.
// Devices present the listener's token as the firmware does (Authorization: Bearer / MQTT password).
import assert from 'node:assert/strict';
import { until } from '../helpers/wait';
import {
  captureLogs,
  helper,
  load,
  nextMessage,
  nextMessages,
  send,
  sleep,
  startRuntime,
  stopRuntime,
  type FlowNode,
  fromRuntime,
  setFlows,
} from '../helpers/runtime';
import { lichuangDev, ottoRobot, XiaozhiMqttDevice, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { createServer } from 'node:net';
import { freePort } from '../peers/free-port';
import { DEVICE_TOKEN, LICHUANG_ID, OTTO_ID, rejection } from './helpers';
import type { Esp32Listener } from '../../src/esp32/listener';

const esp32Nodes = [require('../../nodes/esp32-listener/index.ts'), require('../../nodes/esp32-mcp-in/index.ts')];
const statusNode = require(fromRuntime('@node-red/nodes/core/common/25-status.js'));
const runtimeEvents = require(fromRuntime('@node-red/util')).events;
/** The listener's token, as a device's OTA settings would carry it. */
const creds = { lst: { tokens: DEVICE_TOKEN } };
const openListener = (): Esp32Listener | undefined => helper.getNode('lst')?.devices.listener;

function flow(listener: Record<string, unknown> = {}, server: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: 'lst', type: 'esp32-listener', name: 'devices', transport: 'websocket', path: '/xiaozhi/v1/', ...listener },
    { id: 'in', type: 'esp32-mcp-in', listener: 'lst', wires: [['events']] },
    { id: 'events', type: 'helper' },
    { id: 'srv', type: 'mcp-server', name: 'my devices', transport: 'esp32', listener: 'lst', timeout: '5', ...server },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['listed']] },
    { id: 'listUser', type: 'mcp-list-tools', server: 'srv', userOnly: true, wires: [['listed']] },
    { id: 'listed', type: 'helper' },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', validate: false, wires: [['called'], []] },
    { id: 'called', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

describe('esp32-listener and esp32-mcp-in nodes (real runtime)', function () {
  this.timeout(30000);
  const devices: XiaozhiWsDevice[] = [];
  const wsUrl = () => helper.url().replace('http', 'ws') + '/xiaozhi/v1/';
  const connect = async (opts: Partial<Parameters<typeof XiaozhiWsDevice.connect>[0]> = {}) => {
    const d = await XiaozhiWsDevice.connect({ url: wsUrl(), deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot(), ...opts });
    devices.push(d);
    return d;
  };
  /** Every event message of one device up to and including its `tools`. */
  const untilTools = (deviceId: string) =>
    new Promise<any[]>((resolve) => {
      const got: any[] = [];
      helper.getNode('events').on('input', (msg: any) => {
        if (msg.device.id !== deviceId) return;
        got.push(msg);
        if (msg.topic === 'tools') resolve(got);
      });
    });

  /** Resolves with the first status of node `id` matching `pred`, as the runtime reports it to the editor. */
  const statusOf = (id: string, pred: (s: any) => boolean, ms = 10_000) =>
    new Promise<any>((resolve, reject) => {
      const timer = setTimeout(
        () => (runtimeEvents.off('node-status', on), reject(new Error(`no matching status for ${id}; saw ${JSON.stringify(seen)}`))),
        ms,
      );
      const seen: any[] = [];
      const on = (e: { id: string; status: any }) => {
        if (e.id !== id) return;
        seen.push(e.status);
        if (!pred(e.status)) return;
        clearTimeout(timer);
        runtimeEvents.off('node-status', on);
        resolve(e.status);
      };
      runtimeEvents.on('node-status', on);
    });

  before(startRuntime);
  after(stopRuntime);
  afterEach(async () => {
    for (const d of devices.splice(0)) d.close();
    await helper.unload();
  });

  it('sends connected then tools (every tool of the two-page device) with msg.device', async () => {
    await load(flow(), creds, esp32Nodes);
    const events = untilTools(OTTO_ID);
    const device = await connect();
    const [connected, tools] = await events;
    assert.equal(connected.topic, 'connected');
    assert.equal(tools.topic, 'tools');
    assert.deepEqual(connected.device, {
      id: OTTO_ID,
      clientId: device.clientId,
      sessionId: device.sessionId,
      transport: 'websocket',
      serverInfo: { name: 'otto-robot', version: '2.4.2' },
    });
    assert.deepEqual(
      tools.payload.map((t: any) => t.name),
      ottoRobot().tools.map((t) => t.name),
    );
    // mcp-list-tools hides the user-only tools unless asked
    const listed = nextMessages('listed', 2);
    send('list', { payload: 'go' });
    send('listUser', { payload: 'go' });
    const [ai, all] = await listed;
    const counts = [ai.payload.length, all.payload.length].sort();
    assert.deepEqual(counts, [13, 20]);
    assert.equal(ai.mcp.pages, 2);
    assert.deepEqual(ai.mcp.server.serverInfo, { name: 'otto-robot', version: '2.4.2' });
  });

  it('calls a tool on the device named by msg.device.id (two devices connected)', async () => {
    await load(flow(), creds, esp32Nodes);
    const ottoReady = untilTools(OTTO_ID);
    const lichReady = untilTools(LICHUANG_ID);
    const otto = await connect();
    const lich = await connect({ deviceId: LICHUANG_ID, fixture: lichuangDev() });
    const [, lichTools] = await Promise.all([ottoReady, lichReady]);
    const device = lichTools.at(-1).device;
    const out = nextMessage('called');
    send('call', { tool: 'self.audio_speaker.set_volume', payload: { volume: 25 }, device });
    const msg = await out;
    assert.equal(msg.mcp.result.content[0].text, 'true');
    assert.equal(msg.mcp.server.serverInfo.name, 'lichuang-dev');
    assert.equal(lich.firmware.state.volume, 25);
    assert.equal(otto.firmware.state.volume, 70);
    // without msg.device and with two devices the node refuses to guess, through Catch
    const caught = nextMessage('caught');
    send('call', { tool: 'self.audio_speaker.set_volume', payload: { volume: 1 } });
    assert.match((await caught).error.message, /2 ESP32 devices are connected/);
  });

  it('firmware errors, unknown tools, dropped requests and dropped connections reach Catch', async () => {
    await load(flow({}, { timeout: '0.5' }), creds, esp32Nodes);
    const ready = untilTools(OTTO_ID);
    const device = await connect({ firmware: { hangingTools: ['self.otto.action', 'self.otto.stop'] } });
    const device0 = (await ready).at(-1).device;

    let caught = nextMessage('caught');
    send('call', { tool: 'self.audio_speaker.set_volume', payload: { volume: 150 }, device: device0 });
    assert.match((await caught).error.message, /Value exceeds maximum allowed: 100/);

    caught = nextMessage('caught');
    send('call', { tool: 'self.light.turn_on', payload: {}, device: device0 });
    assert.match((await caught).error.message, /self\.light\.turn_on/);

    caught = nextMessage('caught');
    send('call', { tool: 'self.otto.action', payload: { action: 'walk' }, device: device0 });
    assert.match((await caught).error.message, /did not answer tools\/call "self\.otto\.action"/);

    // a 30 s call: the device dropping TCP must fail it at once, not at its timeout
    await helper.unload();
    await load(flow({}, { timeout: '30' }), creds, esp32Nodes);
    const again = untilTools(OTTO_ID);
    const device2 = await connect({ firmware: { hangingTools: ['self.otto.stop'] } });
    const d2 = (await again).at(-1).device;
    caught = nextMessage('caught');
    send('call', { tool: 'self.otto.stop', payload: {}, device: d2 });
    await until('the call to reach the device', () => device2.firmware.received.some((r) => r.method === 'tools/call'));
    device2.dropTcp();
    const err = (await caught).error;
    assert.match(err.message, /dropped the connection \(1006\)/);
    assert.ok(device.ws.readyState >= 2, 'the first device was closed by the redeploy');
  });

  it('a reconnect is a new session and its tools are listed again; disconnected is reported', async () => {
    await load(flow(), creds, esp32Nodes);
    let ready = untilTools(OTTO_ID);
    const first = await connect();
    const firstSession = (await ready).at(-1).device.sessionId;
    const gone = new Promise<any>((resolve) => helper.getNode('events').on('input', (m: any) => m.topic === 'disconnected' && resolve(m)));
    first.dropTcp();
    const bye = await gone;
    assert.equal(bye.payload.code, 1006);
    ready = untilTools(OTTO_ID);
    await connect();
    const tools = (await ready).at(-1);
    assert.notEqual(tools.device.sessionId, firstSession);
    assert.equal(tools.payload.length, 20);
  });

  it("checks bearer tokens (401) and the allow list (403) on Node-RED's server; lists devices on the admin route", async () => {
    const logs = captureLogs();
    await load(flow({ allow: OTTO_ID.toUpperCase() }), { lst: { tokens: 'tok-1\ntok-2' } }, esp32Nodes);
    assert.equal((await rejection(connect({ token: 'nope' }))).status, 401);
    assert.equal((await rejection(connect({ deviceId: LICHUANG_ID, token: 'tok-2', fixture: lichuangDev() }))).status, 403);
    const ready = untilTools(OTTO_ID);
    await connect({ token: 'tok-2' });
    await ready;
    const res = await helper.request().get('/esp32-listener/lst/devices').expect(200);
    assert.equal(res.body.transport, 'websocket');
    assert.equal(res.body.devices.length, 1);
    assert.equal(res.body.devices[0].id, OTTO_ID);
    assert.equal(res.body.devices[0].toolCount, 13);
    assert.equal(res.body.devices[0].userToolCount, 7);
    assert.equal(res.body.devices[0].state, 'ready');
    assert.ok(!JSON.stringify(res.body).includes('tok-'), 'tokens never leave the runtime');
    await helper.request().get('/esp32-listener/nope/devices').expect(404);
    assert.ok(logs.lines().length > 0, 'the refusals were logged');
    assert.ok(!logs.lines().some((l) => l.includes('tok-1') || l.includes('tok-2')), 'no configured token in any log line');
  });

  it('redeploy closes every device socket and removes its upgrade listener', async () => {
    const baseline = helper._server.listenerCount('upgrade');
    await load(flow(), creds, esp32Nodes);
    assert.equal(helper._server.listenerCount('upgrade'), baseline + 1);
    const r1 = untilTools(OTTO_ID);
    const r2 = untilTools(LICHUANG_ID);
    const a = await connect();
    const b = await connect({ deviceId: LICHUANG_ID, fixture: lichuangDev() });
    await Promise.all([r1, r2]);
    await helper.unload();
    const [ca, cb] = await Promise.all([a.closed, b.closed]);
    assert.equal(ca.code, 1001);
    assert.equal(cb.code, 1001);
    assert.equal(helper._server.listenerCount('upgrade'), baseline);
  });

  it('a modified-flow deploy (new path) closes the old sockets; devices reach the new path only', async () => {
    await load(flow(), creds, esp32Nodes);
    const r = untilTools(OTTO_ID);
    const a = await connect();
    await r;
    const tab = { id: 'test-tab', type: 'tab', label: 'test' };
    const changed = flow({ path: '/devices/' }).map((n) => (n.type === 'mcp-server' || n.type === 'esp32-listener' ? n : { ...n, z: tab.id }));
    await setFlows([tab, ...changed], 'nodes');
    assert.equal((await a.closed).code, 1001);
    const onNewPath = await XiaozhiWsDevice.connect({
      url: helper.url().replace('http', 'ws') + '/devices/',
      deviceId: OTTO_ID,
      token: DEVICE_TOKEN,
      fixture: ottoRobot(),
    });
    devices.push(onNewPath);
    const registry = openListener()!.registry;
    while (registry.get(OTTO_ID)?.state !== 'ready') await new Promise((res) => registry.once('change', res));
    // the old path is nobody's any more: the upgrade is not answered
    const old = XiaozhiWsDevice.connect({ url: wsUrl(), deviceId: LICHUANG_ID, token: DEVICE_TOKEN, fixture: lichuangDev() });
    const outcome = await Promise.race([
      old.then(
        () => 'connected',
        () => 'refused',
      ),
      sleep(300).then(() => 'unanswered'),
    ]);
    assert.notEqual(outcome, 'connected');
  });

  it('mqtt-gateway mode: a stock device that never subscribes is listed and called; redeploy frees the port', async () => {
    const port = await freePort();
    await load(flow({ transport: 'mqtt-gateway', bind: '127.0.0.1', port }), creds, esp32Nodes);
    // the embedded listener binds asynchronously (aedes is loaded on first use)
    for (let i = 0; i < 200 && !openListener()?.port; i++) await sleep(25);
    const ready = untilTools(OTTO_ID);
    const device = await XiaozhiMqttDevice.connect({
      brokerUrl: `mqtt://127.0.0.1:${port}`,
      deviceId: OTTO_ID,
      mode: 'stock',
      password: DEVICE_TOKEN,
      fixture: ottoRobot(),
    });
    try {
      const tools = (await ready).at(-1);
      assert.equal(tools.device.transport, 'mqtt-gateway');
      const out = nextMessage('called');
      send('call', { tool: 'self.audio_speaker.set_volume', payload: { volume: 12 }, device: tools.device });
      await out;
      assert.equal(device.firmware.state.volume, 12);
    } finally {
      await helper.unload();
      await device.end();
    }
    const { createServer } = await import('node:net');
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
    await new Promise((r) => probe.close(r));
  });

  it('mqtt client mode: an allow-listed device on a broker the test starts is listed and called', async () => {
    const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;
    const { Aedes } = await importEsm('aedes');
    const { createServer } = await import('node:net');
    const broker = await Aedes.createBroker();
    const server = createServer(broker.handle);
    const sockets = new Set<import('node:net').Socket>();
    server.on('connection', (c) => (sockets.add(c), c.on('close', () => sockets.delete(c))));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const brokerUrl = `mqtt://127.0.0.1:${(server.address() as any).port}`;
    const device = await XiaozhiMqttDevice.connect({ brokerUrl, deviceId: OTTO_ID, mode: 'subscribing', fixture: ottoRobot() });
    try {
      await load(flow({ transport: 'mqtt', broker: brokerUrl, allow: OTTO_ID }), creds, esp32Nodes);
      // The device may be ready before a listener on the output could be attached: ask the registry.
      for (let i = 0; i < 200 && !openListener(); i++) await sleep(25);
      const registry = openListener()!.registry;
      while (registry.get(OTTO_ID)?.state !== 'ready') await new Promise((r) => registry.once('change', r));
      assert.equal(registry.get(OTTO_ID)!.transport, 'mqtt');
      const out = nextMessage('called');
      send('call', { tool: 'self.audio_speaker.set_volume', payload: { volume: 44 } });
      await out;
      assert.equal(device.firmware.state.volume, 44);
    } finally {
      await helper.unload();
      await device.end();
      await new Promise((r) => broker.close(r));
      for (const c of sockets) c.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('mqtt client mode shows an unreachable broker on the node status', async () => {
    const port = await freePort(); // nothing listens there
    await load(
      [
        ...flow({ transport: 'mqtt', broker: `mqtt://127.0.0.1:${port}`, allow: OTTO_ID }),
        { id: 'statusWatch', type: 'status', scope: ['in'], wires: [['statuses']] },
        { id: 'statuses', type: 'helper' },
      ],
      {},
      [...esp32Nodes, statusNode],
    );
    const msg = await nextMessage('statuses');
    assert.match(msg.status.text, /connecting to broker|brokerConnecting/); // the test helper loads no message catalogs
    assert.equal(msg.status.fill, 'yellow');
  });

  it('bad config (mqtt without broker) is reported without throwing', async () => {
    const inStatus = statusOf('in', (st) => st.fill === 'red');
    const callStatus = statusOf('call', (st) => st.fill === 'red');
    await load(flow({ transport: 'mqtt', broker: '' }), creds, esp32Nodes);
    const n = helper.getNode('in');
    assert.ok(n, 'the node exists');
    // both kinds of user say so: the event node through the listener, the tool node through its server
    assert.equal((await inStatus).text, 'listener failed');
    assert.equal((await callStatus).text, 'listener failed');
    const caught = nextMessage('caught');
    send('call', { tool: 'self.reboot', payload: {} });
    assert.match((await caught).error.message, /the esp32-listener "devices" is not listening \(see its status for why\)/);
  });

  it('a listener with no token refuses every device (401) and says so on its users; anonymous shows "open to any device"', async () => {
    let status = statusOf('in', (st) => st.fill === 'red');
    await load(flow(), {}, esp32Nodes);
    assert.equal((await status).text, 'no token set: devices refused');
    assert.equal((await rejection(connect({ token: undefined }))).status, 401);
    assert.equal((await rejection(connect({ token: 'guess' }))).status, 401);

    status = statusOf('in', (st) => st.fill === 'yellow');
    await load(flow({ anonymous: true }), {}, esp32Nodes);
    assert.match((await status).text, /^open to any device/);
    const ready = untilTools(OTTO_ID);
    await connect({ token: undefined });
    await ready;
  });

  it("own port: devices connect there; the port is freed when the listener's last user is removed", async () => {
    const port = await freePort();
    const tab = { id: 'test-tab', type: 'tab', label: 'test' };
    const placed = (nodes: FlowNode[]) => [tab, ...nodes.map((n) => (n.type === 'mcp-server' || n.type === 'esp32-listener' ? n : { ...n, z: tab.id }))];
    await load(flow({ port, bind: '127.0.0.1' }), creds, esp32Nodes);
    for (let i = 0; i < 200 && !openListener()?.port; i++) await sleep(25);
    const ready = untilTools(OTTO_ID);
    const device = await XiaozhiWsDevice.connect({ url: `ws://127.0.0.1:${port}/xiaozhi/v1/`, deviceId: OTTO_ID, token: DEVICE_TOKEN, fixture: ottoRobot() });
    devices.push(device);
    await ready;
    assert.equal(openListener()!.port, port);
    // remove the event node: the mcp-server still uses the listener, so it keeps listening
    await setFlows(placed(flow({ port, bind: '127.0.0.1' }).filter((n) => n.id !== 'in')), 'full', creds);
    for (let i = 0; i < 200 && !openListener()?.port; i++) await sleep(25);
    assert.equal(openListener()?.port, port);
    // remove every user; the listener config node itself stays in the flow
    const usersGone = flow({ port, bind: '127.0.0.1' }).filter((n) => n.id === 'lst' || n.id === 'events');
    await setFlows(placed(usersGone), 'full', creds);
    assert.ok(helper.getNode('lst'), 'the listener config node is still deployed');
    assert.equal(openListener(), undefined);
    const probe = createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', () => resolve()));
    await new Promise((r) => probe.close(r));
  });

  it('the events filter lets only the listed topics out', async () => {
    await load(
      flow().map((n) => (n.id === 'in' ? { ...n, events: 'tools\ndisconnected' } : n)),
      creds,
      esp32Nodes,
    );
    const got: string[] = [];
    helper.getNode('events').on('input', (m: any) => got.push(m.topic));
    const ready = untilTools(OTTO_ID);
    const device = await connect();
    await ready;
    const gone = new Promise<void>((resolve) => helper.getNode('events').on('input', (m: any) => m.topic === 'disconnected' && resolve()));
    device.dropTcp();
    await gone;
    assert.deepEqual(got, ['tools', 'disconnected']);
  });
});
