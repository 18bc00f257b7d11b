// xiaozhi devices spread over two real Node-REDs by Debian's nginx, as docs/scaling.md sets it up:
// WebSocket devices through nginx's HTTP proxy (the upgrade passed on, a device kept on one
// instance by its Device-Id), mqtt-gateway devices through nginx's stream module (TCP, kept on one
// instance by their address, each connection opened with a PROXY protocol header). Every simulated
// device has its own IP (a 127.0.x.y loopback alias), as devices on a LAN do, so the gateway can
// accept a device's UDP audio only if it learned that address from the header. Each instance's
// gateway listens on an address of its own and names it as `udpHost`.
// The flow on both: an HTTP route that calls a device tool through an esp32 mcp-server (a flow acts
// on the devices of its own instance), and utterances played back to the device with esp32-say.
import { strict as assert } from 'node:assert';
import { startNodeRed, type FlowNode, type NodeRedProcess } from '../helpers/node-red';
import { freePort } from '../peers/free-port';
import { DeviceVoice, XiaozhiMqttDevice, XiaozhiWsDevice, lichuangDev, speechSamples } from '../peers/xiaozhi-device';
import { skipBecause } from '../helpers/skip';
import { nginxMissing, startNginx, type Nginx } from './nginx';
import { deviceUpstreams } from './nginx-config';

const DEVICE_TOKEN = 'scaling-device-token';
const PER_TRANSPORT = 100;
const INSTANCES = { a: '127.0.0.2', b: '127.0.0.3' } as const;
type Instance = keyof typeof INSTANCES;

function flow(): FlowNode[] {
  const z = 'sd-tab';
  const listener = (id: string, extra: Record<string, unknown>) => ({
    id,
    type: 'esp32-listener',
    name: `listener ${id.slice(-2)}`,
    anonymous: false,
    voice: 'flow',
    credentials: { tokens: DEVICE_TOKEN },
    ...extra,
  });
  const caller = (id: string, server: string) => ({
    id,
    type: 'mcp-call-tool',
    z,
    server,
    tool: 'self.audio_speaker.set_volume',
    arguments: 'payload',
    argumentsType: 'msg',
    validate: true,
    output: 'auto',
    toolErrors: 'throw',
    wires: [['sd-answer'], []],
  });
  return [
    { id: z, type: 'tab', label: 'devices on this instance' },
    listener('sd-lw', { transport: 'websocket', path: '/xiaozhi/v1/', port: '' }),
    listener('sd-lg', { transport: 'mqtt-gateway', port: '${GATEWAY_PORT}', bind: '${GATEWAY_HOST}', udpHost: '${GATEWAY_HOST}', proxyProtocol: true }),
    { id: 'sd-sw', type: 'mcp-server', name: 'ws devices', transport: 'esp32', listener: 'sd-lw', deviceId: '', timeout: '10' },
    { id: 'sd-sg', type: 'mcp-server', name: 'gateway devices', transport: 'esp32', listener: 'sd-lg', deviceId: '', timeout: '10' },
    { id: 'sd-http', type: 'http in', z, url: '/device-call', method: 'post', wires: [['sd-route']] },
    {
      id: 'sd-route',
      type: 'function',
      z,
      name: 'to the transport',
      func: "msg.device = { id: msg.payload.device };\nconst out = msg.payload.transport === 'websocket' ? [msg, null] : [null, msg];\nmsg.payload = { volume: msg.payload.volume };\nreturn out;",
      outputs: 2,
      wires: [['sd-cw'], ['sd-cg']],
    },
    caller('sd-cw', 'sd-sw'),
    caller('sd-cg', 'sd-sg'),
    {
      id: 'sd-answer',
      type: 'function',
      z,
      func: "msg.payload = { instance: env.get('NODE_RED_INSTANCE'), result: msg.payload };\nreturn msg;",
      outputs: 1,
      wires: [['sd-reply']],
    },
    { id: 'sd-catch', type: 'catch', z, scope: ['sd-cw', 'sd-cg', 'sd-route'], uncaught: false, wires: [['sd-refused']] },
    {
      id: 'sd-refused',
      type: 'function',
      z,
      func: "msg.statusCode = 409;\nmsg.payload = { instance: env.get('NODE_RED_INSTANCE'), error: msg.error.message };\nreturn msg;",
      outputs: 1,
      wires: [['sd-reply']],
    },
    { id: 'sd-reply', type: 'http response', z, statusCode: '', wires: [] },
    { id: 'sd-mw', type: 'esp32-mcp-in', z, listener: 'sd-lw', events: 'utterance', wires: [['sd-say-w']] },
    { id: 'sd-mg', type: 'esp32-mcp-in', z, listener: 'sd-lg', events: 'utterance', wires: [['sd-say-g']] },
    { id: 'sd-say-w', type: 'esp32-say', z, listener: 'sd-lw', deviceId: '', wires: [[]] },
    { id: 'sd-say-g', type: 'esp32-say', z, listener: 'sd-lg', deviceId: '', wires: [[]] },
  ];
}

const wsId = (i: number) => `a0:00:00:00:00:${i.toString(16).padStart(2, '0')}`;
const mqttId = (i: number) => `b0:00:00:00:00:${i.toString(16).padStart(2, '0')}`;
/** Device i's own address: 127.0.1.(i+1), a loopback alias Linux answers without set-up. */
const mqttAddress = (i: number) => `127.0.1.${i + 1}`;

describe('scaling: 200 xiaozhi devices across two Node-REDs behind nginx', function () {
  this.timeout(180_000);
  const missing = nginxMissing({ stream: true });
  const nodeReds: Partial<Record<Instance, NodeRedProcess>> = {};
  let nginx: Nginx | undefined;
  let wsUrl = '';
  let mqttUrl = '';
  const ws: XiaozhiWsDevice[] = [];
  const mqtt: XiaozhiMqttDevice[] = [];

  before(async function () {
    if (missing) return skipBecause(this, '200 devices across two Node-REDs behind nginx', missing);
    const gatewayPorts = { a: await freePort(), b: await freePort() };
    await Promise.all(
      (Object.keys(INSTANCES) as Instance[]).map(async (name) => {
        nodeReds[name] = await startNodeRed({ env: { NODE_RED_INSTANCE: name, GATEWAY_HOST: INSTANCES[name], GATEWAY_PORT: String(gatewayPorts[name]) } });
        await nodeReds[name]!.deploy(flow());
      }),
    );
    const [httpPort, mqttPort] = [await freePort(), await freePort()];
    const up = deviceUpstreams({
      websocket: { a: new URL(nodeReds.a!.url).host, b: new URL(nodeReds.b!.url).host },
      gateway: { a: `${INSTANCES.a}:${gatewayPorts.a}`, b: `${INSTANCES.b}:${gatewayPorts.b}` },
    });
    nginx = await startNginx({
      http: `${up.http}
  server {
    listen 127.0.0.1:${httpPort};
${up.location}
  }`,
      stream: `${up.stream}
  server {
    listen 127.0.0.1:${mqttPort};
${up.server}
  }`,
    });
    wsUrl = `ws://127.0.0.1:${httpPort}/xiaozhi/v1/`;
    mqttUrl = `mqtt://127.0.0.1:${mqttPort}`;
  });

  after(async () => {
    await Promise.all([...ws.map((d) => d.close()), ...mqtt.map((d) => d.end().catch(() => undefined))]);
    await nginx?.stop();
    await Promise.all(Object.values(nodeReds).map((nr) => nr!.stop()));
  });

  /** What the instances and nginx logged, for a failure's message. */
  function diagnosis(): string {
    const logs = (Object.keys(nodeReds) as Instance[]).map(
      (n) =>
        `Node-RED ${n}:\n${nodeReds[n]!.log.filter((l) => /error|esp32|refus/i.test(l))
          .slice(0, 12)
          .join('\n')}`,
    );
    const proxy = nginx!
      .errors()
      .split('\n')
      .filter((l) => !l.includes('no live upstreams'))
      .slice(0, 8);
    return [...logs, `nginx:\n${proxy.join('\n')}`].join('\n');
  }

  /** Retried: the listeners open once the flows have started. */
  async function dial<T>(connect: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await connect();
      } catch (err) {
        if (attempt > 40) throw new Error(`${(err as Error).message}\n${diagnosis()}`, { cause: err });
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** The device's tool through each instance's flow: who answered, who refused. */
  async function callEverywhere(transport: 'websocket' | 'mqtt-gateway', device: string): Promise<Record<Instance, { status: number; body: any }>> {
    const out = {} as Record<Instance, { status: number; body: any }>;
    for (const name of Object.keys(INSTANCES) as Instance[]) {
      const res = await fetch(`${nodeReds[name]!.url}/device-call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transport, device, volume: 40 }),
      });
      out[name] = { status: res.status, body: await res.json() };
    }
    return out;
  }

  it('every device connects through nginx, stays on one instance, and its tool answers there (and only there)', async () => {
    for (let batch = 0; batch < PER_TRANSPORT; batch += 25) {
      const range = Array.from({ length: 25 }, (_, k) => batch + k);
      ws.push(
        ...(await Promise.all(
          range.map((i) => dial(() => XiaozhiWsDevice.connect({ url: wsUrl, deviceId: wsId(i), token: DEVICE_TOKEN, fixture: lichuangDev() }))),
        )),
      );
      mqtt.push(
        ...(await Promise.all(
          range.map((i) =>
            dial(() =>
              XiaozhiMqttDevice.connect({
                brokerUrl: mqttUrl,
                deviceId: mqttId(i),
                mode: 'stock',
                password: DEVICE_TOKEN,
                fixture: lichuangDev(),
                localAddress: mqttAddress(i),
              }),
            ),
          ),
        )),
      );
    }
    const served: Record<string, Record<Instance, number>> = { websocket: { a: 0, b: 0 }, 'mqtt-gateway': { a: 0, b: 0 } };
    const problems: string[] = [];
    const deadline = Date.now() + 60_000;
    for (const [transport, ids] of [
      ['websocket', ws.map((_, i) => wsId(i))],
      ['mqtt-gateway', mqtt.map((_, i) => mqttId(i))],
    ] as const) {
      for (const id of ids) {
        // Ready = its tools listed on its instance; until then the call is refused everywhere.
        for (;;) {
          const r = await callEverywhere(transport, id);
          const ok = (Object.keys(r) as Instance[]).filter((n) => r[n].status === 200);
          if (ok.length === 1) {
            const other = ok[0] === 'a' ? 'b' : 'a';
            if (r[other].status !== 409 || !/not connected|no device|connected/i.test(r[other].body.error))
              problems.push(`${id} on ${other}: ${JSON.stringify(r[other])}`);
            served[transport][ok[0]]++;
            break;
          }
          if (ok.length > 1 || Date.now() > deadline) {
            problems.push(`${transport} ${id}: ${JSON.stringify(r)}`);
            break;
          }
          await new Promise((res) => setTimeout(res, 200));
        }
      }
    }
    console.log(`      devices per instance: websocket ${JSON.stringify(served.websocket)}, mqtt-gateway ${JSON.stringify(served['mqtt-gateway'])}`);
    assert.deepEqual(problems, []);
    for (const t of ['websocket', 'mqtt-gateway']) {
      assert.equal(served[t].a + served[t].b, PER_TRANSPORT, `${t}: every device answered`);
      assert.ok(served[t].a > 0 && served[t].b > 0, `${t}: devices on both instances`);
    }
  });

  it('one voice turn per transport is played back whole; the gateway device sends UDP audio from its own address to the instance that answered its hello', async () => {
    const speechMs = (speechSamples().length / 16000) * 1000;
    assert.equal(ws.length + mqtt.length, 2 * PER_TRANSPORT, 'the devices of the spec before are connected');
    const wsVoice = await DeviceVoice.overWebSocket(ws[0]);
    const mqttDevice = mqtt[7];
    const mqttVoice = await DeviceVoice.overMqtt(mqttDevice);
    const gatewayOf = (Object.keys(INSTANCES) as Instance[]).find((n) => INSTANCES[n] === mqttVoice.udp.hello.server);
    assert.ok(gatewayOf, `udp.server ${mqttVoice.udp.hello.server} names one of the instances (its udpHost)`);
    const held = await callEverywhere('mqtt-gateway', mqttId(7));
    assert.equal(held[gatewayOf].status, 200, 'the hello came from the instance that holds the device');
    for (const [name, voice] of [
      ['websocket', wsVoice],
      ['mqtt-gateway', mqttVoice],
    ] as const) {
      const stopped = voice.speaker.nextStop();
      await voice.say({ mode: 'manual', realTime: true });
      await stopped;
      const played = voice.speaker.report.playedMs;
      console.log(`      ${name}: said ${speechMs.toFixed(0)} ms, heard back ${played} ms`);
      assert.ok(Math.abs(played - speechMs) <= speechMs * 0.15, `${name}: played ${played} ms of ${speechMs.toFixed(0)} ms`);
      assert.equal(voice.speaker.report.overflows, 0);
    }
    mqttVoice.udp.close();
  });
});
