// The embedded MQTT listener of `mqtt-gateway` mode. Stock firmware never subscribes (it stopped in
// January 2025), so a plain broker cannot reach it; like the official xiaozhi-mqtt-gateway this
// listener knows each device by its connection (client id `GID_<group>@@@<mac_>@@@<uuid>`) and
// writes to `devices/p2p/<mac_>` on that connection directly, with no subscription involved.
// MCP starts right after CONNECT, as the gateway does: it works while the device is idle.
// Admission follows device-gate.ts: the MQTT password is the device's token, and a refusal is a
// CONNACK "not authorized" (5).
import { createServer, type Server, type Socket } from 'node:net';
import type { Aedes, AuthenticateError, Client } from 'aedes';
import { DeviceRegistry } from './device-registry';
import { DeviceSession } from './device-session';
import { DeviceGate } from './device-gate';
import { deviceIdFromMqttClientId, deviceTopicFor, topicMatcher } from './device-id';
import { IdAllocator } from './rpc-client';
import {
  DEFAULT_BIND,
  DEFAULT_DEVICE_TOPIC,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_PUBLISH_TOPIC,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type Esp32Listener,
  type Esp32ListenerSettings,
} from './listener';

// aedes 1.x is an ES module; loading it with import() keeps this CommonJS build working on every Node 20.
// (tsc's CommonJS output would turn a literal import() into require(), which cannot load an ES module there.)
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;

export class MqttGatewayListener implements Esp32Listener {
  readonly transport = 'mqtt-gateway' as const;
  readonly registry = new DeviceRegistry();
  private readonly ids = new IdAllocator();
  private readonly sessions = new Map<Client, DeviceSession>();
  private readonly sockets = new Set<Socket>();
  private broker?: Aedes;
  private server?: Server;
  private readonly fromDevice: ReturnType<typeof topicMatcher>;
  private readonly deviceTopic: string;
  readonly gate: DeviceGate;
  /** Clients that proved themselves with a token (only they may replace a connected device). */
  private readonly authenticated = new WeakSet<Client>();

  constructor(private readonly settings: Esp32ListenerSettings) {
    this.fromDevice = topicMatcher(settings.publishTopic || DEFAULT_PUBLISH_TOPIC);
    this.deviceTopic = settings.deviceTopic || DEFAULT_DEVICE_TOPIC;
    this.gate = new DeviceGate(settings);
  }

  /** The bound port (useful when started on port 0). */
  get port(): number | undefined {
    const a = this.server?.address();
    return a && typeof a === 'object' ? a.port : undefined;
  }

  async start(): Promise<void> {
    const { Aedes } = await importEsm<typeof import('aedes')>('aedes');
    const broker: Aedes = await Aedes.createBroker({ authenticate: (c, _u, p, cb) => this.authenticate(c, p, cb) });
    this.broker = broker;
    broker.on('clientReady', (client) => this.onClient(client));
    broker.on('clientDisconnect', (client) => this.onGone(client));
    broker.on('publish', (packet, client) => {
      const session = client && this.sessions.get(client);
      if (!session || this.fromDevice.match(packet.topic) === undefined) return;
      session.handleText(packet.payload.toString());
    });
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      broker.handle(socket);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.settings.port ?? DEFAULT_GATEWAY_PORT, this.settings.bind || DEFAULT_BIND, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    for (const client of this.sessions.keys()) client.close();
    for (const s of this.sockets) s.destroy();
    await Promise.all([
      this.broker ? new Promise<void>((r) => this.broker!.close(() => r())) : undefined,
      this.server?.listening ? new Promise<void>((r) => this.server!.close(() => r())) : undefined,
    ]);
  }

  private authenticate(client: Client, password: Buffer | undefined, cb: (err: AuthenticateError | null, ok: boolean | null) => void): void {
    const deviceId = deviceIdFromMqttClientId(client.id);
    const fail = (returnCode: number, message: string) => {
      this.settings.log?.warn(`esp32 gateway: refused MQTT client: ${message}`);
      cb(Object.assign(new Error(message), { returnCode }) as AuthenticateError, false);
    };
    if (!deviceId) return fail(2, 'client id names no device (expected GID_<group>@@@<mac_>@@@<uuid>)');
    const credential = this.gate.checkToken(password);
    if (!credential.ok) return fail(5, `device ${deviceId}: ${credential.message}`);
    const admitted = this.gate.checkDevice(deviceId, credential.authenticated, this.registry);
    if (!admitted.ok) return fail(5, admitted.message);
    if (credential.authenticated) this.authenticated.add(client);
    cb(null, true);
  }

  private onClient(client: Client): void {
    const deviceId = deviceIdFromMqttClientId(client.id);
    if (!deviceId) return;
    const topic = deviceTopicFor(this.deviceTopic, deviceId);
    const session = new DeviceSession({
      id: deviceId,
      clientId: client.id,
      transport: 'mqtt-gateway',
      ids: this.ids,
      requestTimeoutMs: this.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      vision: this.settings.vision,
      log: this.settings.log,
      link: {
        send: (text) => client.publish({ cmd: 'publish', topic, payload: Buffer.from(text), qos: 0, retain: false, dup: false }, () => undefined),
        close: () => client.close(),
      },
    });
    // Checked again: another client for this id may have connected while this one was admitted.
    if (!this.registry.add(session, this.authenticated.has(client))) {
      this.settings.log?.warn(`esp32 gateway: refused MQTT client: device ${deviceId} is connected already and the new connection has no token`);
      client.close();
      return;
    }
    this.sessions.set(client, session);
    session.start().catch(() => undefined);
  }

  private onGone(client: Client): void {
    const session = this.sessions.get(client);
    if (!session) return;
    this.sessions.delete(client);
    session.handleClosed();
  }
}
