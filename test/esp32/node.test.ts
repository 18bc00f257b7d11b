// esp32-mcp-in in the real Node-RED runtime, with mcp-server (transport esp32), mcp-list-tools and
// mcp-call-tool, against the device simulator on Node-RED's own HTTP server.
import assert from 'node:assert/strict';
import { captureLogs, helper, load, nextMessage, nextMessages, send, sleep, startRuntime, stopRuntime, type FlowNode } from '../helpers/runtime';
import { lichuangDev, ottoRobot, XiaozhiMqttDevice, XiaozhiWsDevice } from '../peers/xiaozhi-device';
import { freePort } from '../peers/free-port';
import { LICHUANG_ID, OTTO_ID, rejection } from './helpers';
import { getListener } from '../../src/esp32/listener-registry';

const esp32Node = require('../../nodes/esp32-mcp-in.ts');
const statusNode = require('@node-red/nodes/core/common/25-status.js');

function flow(extra: Record<string, unknown> = {}, server: Record<string, unknown> = {}): FlowNode[] {
  return [
    { id: 'in', type: 'esp32-mcp-in', transport: 'websocket', path: '/xiaozhi/v1/', wires: [['events']], ...extra },
    { id: 'events', type: 'helper' },
    { id: 'srv', type: 'mcp-server', name: 'my devices', transport: 'esp32', listener: 'in', timeout: '5', ...server },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['listed']] },
    { id: 'listUser', type: 'mcp-list-tools', server: 'srv', userOnly: true, wires: [['listed']] },
    { id: 'listed', type: 'helper' },
    { id: 'call', type: 'mcp-call-tool', server: 'srv', validate: false, wires: [['called'], []] },
    { id: 'called', type: 'helper' },
    { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper' },
  ];
}

describe('esp32-mcp-in node (real runtime)', function () {
  this.timeout(30000);
  const devices: XiaozhiWsDevice[] = [];
  const wsUrl = () => helper.url().replace('http', 'ws') + '/xiaozhi/v1/';
  const connect = async (opts: Partial<Parameters<typeof XiaozhiWsDevice.connect>[0]> = {}) => {
    const d = await XiaozhiWsDevice.connect({ url: wsUrl(), deviceId: OTTO_ID, fixture: ottoRobot(), ...opts });
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

  before(startRuntime);
  after(stopRuntime);
  afterEach(async () => {
    for (const d of devices.splice(0)) d.close();
    await helper.unload();
  });

  it('sends connected then tools (every tool of the two-page device) with msg.device', async () => {
    await load(flow(), {}, [esp32Node]);
    const events = untilTools(OTTO_ID);
    const device = await connect();
    const [connected, tools] = await events;
    assert.equal(connected.topic, 'connected');
    assert.equal(tools.topic, 'tools');
    assert.deepEqual(connected.device, { id: OTTO_ID, clientId: device.clientId, sessionId: device.sessionId, transport: 'websocket', serverInfo: { name: 'otto-robot', version: '2.4.2' } });
    assert.deepEqual(tools.payload.map((t: any) => t.name), ottoRobot().tools.map((t) => t.name));
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
    await load(flow(), {}, [esp32Node]);
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
    await load(flow({}, { timeout: '0.5' }), {}, [esp32Node]);
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
    await load(flow({}, { timeout: '30' }), {}, [esp32Node]);
    const again = untilTools(OTTO_ID);
    const device2 = await connect({ firmware: { hangingTools: ['self.otto.stop'] } });
    const d2 = (await again).at(-1).device;
    caught = nextMessage('caught');
    send('call', { tool: 'self.otto.stop', payload: {}, device: d2 });
    await sleep(100);
    device2.dropTcp();
    const err = (await caught).error;
    assert.match(err.message, /dropped the connection \(1006\)/);
    assert.ok(device.ws.readyState >= 2, 'the first device was closed by the redeploy');
  });

  it('a reconnect is a new session and its tools are listed again; disconnected is reported', async () => {
    await load(flow(), {}, [esp32Node]);
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

  it('checks bearer tokens (401) and the allow list (403) on Node-RED\'s server; lists devices on the admin route', async () => {
    const logs = captureLogs();
    await load(flow({ allow: OTTO_ID.toUpperCase() }), { in: { tokens: 'tok-1\ntok-2' } }, [esp32Node]);
    assert.equal((await rejection(connect({ token: 'nope' }))).status, 401);
    assert.equal((await rejection(connect({ deviceId: LICHUANG_ID, token: 'tok-2', fixture: lichuangDev() }))).status, 403);
    const ready = untilTools(OTTO_ID);
    await connect({ token: 'tok-2' });
    await ready;
    const res = await helper.request().get('/esp32-mcp-in/in/devices').expect(200);
    assert.equal(res.body.transport, 'websocket');
    assert.equal(res.body.devices.length, 1);
    assert.equal(res.body.devices[0].id, OTTO_ID);
    assert.equal(res.body.devices[0].toolCount, 13);
    assert.equal(res.body.devices[0].userToolCount, 7);
    assert.equal(res.body.devices[0].state, 'ready');
    assert.ok(!JSON.stringify(res.body).includes('tok-'), 'tokens never leave the runtime');
    await helper.request().get('/esp32-mcp-in/nope/devices').expect(404);
    assert.ok(logs.lines().length > 0, 'the refusals were logged');
    assert.ok(!logs.lines().some((l) => l.includes('tok-1') || l.includes('tok-2')), 'no configured token in any log line');
  });

  it('redeploy closes every device socket and removes its upgrade listener', async () => {
    const baseline = helper._server.listenerCount('upgrade');
    await load(flow(), {}, [esp32Node]);
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
    await load(flow(), {}, [esp32Node]);
    const r = untilTools(OTTO_ID);
    const a = await connect();
    await r;
    const tab = { id: 'test-tab', type: 'tab', label: 'test' };
    const changed = flow({ path: '/devices/' }).map((n) => (n.type === 'mcp-server' ? n : { ...n, z: tab.id }));
    await helper.setFlows([tab, ...changed], 'nodes');
    assert.equal((await a.closed).code, 1001);
    const onNewPath = await XiaozhiWsDevice.connect({ url: helper.url().replace('http', 'ws') + '/devices/', deviceId: OTTO_ID, fixture: ottoRobot() });
    devices.push(onNewPath);
    const registry = getListener('in')!.registry;
    while (registry.get(OTTO_ID)?.state !== 'ready') await new Promise((res) => registry.once('change', res));
    // the old path is nobody's any more: the upgrade is not answered
    const old = XiaozhiWsDevice.connect({ url: wsUrl(), deviceId: LICHUANG_ID, fixture: lichuangDev() });
    const outcome = await Promise.race([old.then(() => 'connected', () => 'refused'), sleep(300).then(() => 'unanswered')]);
    assert.notEqual(outcome, 'connected');
  });

  it('mqtt-gateway mode: a stock device that never subscribes is listed and called; redeploy frees the port', async () => {
    const port = await freePort();
    await load(flow({ transport: 'mqtt-gateway', host: '127.0.0.1', port }), {}, [esp32Node]);
    // the embedded listener binds asynchronously (aedes is loaded on first use)
    for (let i = 0; i < 200 && !(getListener('in') as any)?.port; i++) await sleep(25);
    const ready = untilTools(OTTO_ID);
    const device = await XiaozhiMqttDevice.connect({ brokerUrl: `mqtt://127.0.0.1:${port}`, deviceId: OTTO_ID, mode: 'stock', fixture: ottoRobot() });
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
      await load(flow({ transport: 'mqtt', broker: brokerUrl, allow: OTTO_ID }), {}, [esp32Node]);
      // The device may be ready before a listener on the output could be attached: ask the registry.
      const registry = getListener('in')!.registry;
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
      [...flow({ transport: 'mqtt', broker: `mqtt://127.0.0.1:${port}`, allow: OTTO_ID }), { id: 'statusWatch', type: 'status', scope: ['in'], wires: [['statuses']] }, { id: 'statuses', type: 'helper' }],
      {},
      [esp32Node, statusNode],
    );
    const msg = await nextMessage('statuses');
    assert.match(msg.status.text, /connecting to broker|brokerConnecting/); // the test helper loads no message catalogs
    assert.equal(msg.status.fill, 'yellow');
  });

  it('bad config (mqtt without broker) is reported without throwing', async () => {
    await load(flow({ transport: 'mqtt', broker: '' }), {}, [esp32Node]);
    const n = helper.getNode('in');
    assert.ok(n, 'the node exists');
    const caught = nextMessage('caught');
    send('call', { tool: 'self.reboot', payload: {} });
    assert.match((await caught).error.message, /no esp32-mcp-in node with id in is deployed/);
  });
});
