// The embedded MQTT listener of `mqtt-gateway` mode. Stock firmware never subscribes (it stopped in
// January 2025), so a plain broker cannot reach it; like the official xiaozhi-mqtt-gateway this
// listener knows each device by its connection (client id `GID_<group>@@@<mac_>@@@<uuid>`) and
// writes to `devices/p2p/<mac_>` on that connection directly, with no subscription involved.
// MCP starts right after CONNECT, as the gateway does: it works while the device is idle.
// Admission follows device-gate.ts: the MQTT password is the device's token, and a refusal is a
// CONNACK "not authorized" (5). With voice on, a device's UDP hello opens its audio channel
// (mqtt-audio.ts); TCP_NODELAY keeps `stt` and `tts start` from waiting for a delayed ACK.
// Packets over 1 MiB close the connection, before and after CONNECT, as the WebSocket side does.
// Connections waiting for CONNECT are bounded per listener and per source and get 10 s to send it
// (pending-connections.ts); warnings about refused connections are throttled (throttled-log.ts).
// Behind a TCP balancer, `proxyProtocol` reads the device's own address from the PROXY header
// (proxy-header.ts) and `udpHost` names where its UDP audio goes (docs/scaling.md).
import { createServer, type Server, type Socket } from 'node:net';
import type { Aedes, AuthenticateError, Client } from 'aedes';
import { DeviceRegistry } from '../devices/device-registry';
import { DeviceSession } from '../devices/device-session';
import { DeviceGate } from '../devices/device-gate';
import { normalizeDeviceId, deviceIdFromMqttClientId, deviceTopicFor, topicMatcher } from '../devices/device-id';
import { IdAllocator } from '../devices/rpc-client';
import { MqttAudioRouter } from './mqtt-audio';
import { MqttFrameLimit } from './mqtt-frame-limit';
import { readProxyHeader } from './proxy-header';
import { CONNECT_DEADLINE_MS, PendingConnections } from './pending-connections';
import { ThrottledLog } from '../../throttled-log';
import {
  DEFAULT_BIND,
  DEFAULT_DEVICE_TOPIC,
  DEFAULT_GATEWAY_PORT,
  DEFAULT_PUBLISH_TOPIC,
  DEFAULT_REQUEST_TIMEOUT_MS,
  LISTEN_BACKLOG,
  MAX_FRAME_BYTES,
  type Esp32Listener,
  type Esp32ListenerSettings,
  type ListenerRuntime,
} from '../listener';

const MAX_EARLY_MESSAGES = 16;

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
  private readonly audio?: MqttAudioRouter<Client>;
  /** Behind a balancer (proxyProtocol): each connection's device address, from its PROXY header. */
  private readonly proxiedAddress = new WeakMap<Socket, string>();
  /** Messages of clients that published before aedes called them ready. */
  private readonly early = new Map<Client, string[]>();
  private readonly pending = new PendingConnections();
  private readonly warnings: ThrottledLog;

  constructor(
    private readonly settings: Esp32ListenerSettings,
    private readonly runtime: ListenerRuntime = {},
  ) {
    this.fromDevice = topicMatcher(settings.publishTopic || DEFAULT_PUBLISH_TOPIC);
    this.deviceTopic = settings.deviceTopic || DEFAULT_DEVICE_TOPIC;
    this.gate = new DeviceGate(settings, runtime.pairing);
    if (runtime.audio) this.audio = new MqttAudioRouter(runtime.audio, runtime.log, settings.udpHost);
    this.warnings = new ThrottledLog((line) => runtime.log?.warn(`esp32 gateway: ${line}`));
  }

  /** The bound port (useful when started on port 0). */
  get port(): number | undefined {
    const a = this.server?.address();
    return a && typeof a === 'object' ? a.port : undefined;
  }

  async start(): Promise<void> {
    // aedes 1.x is an ES module: the build bundles it into the CommonJS runtime (scripts/bundle-runtime.mjs),
    // and loaded only here, so a listener without the gateway never loads a broker.
    const { Aedes } = await import('aedes');
    const broker: Aedes = await Aedes.createBroker({
      authenticate: (c, _u, p, cb) => this.authenticate(c, p, cb),
      connectTimeout: this.runtime.connectDeadlineMs ?? CONNECT_DEADLINE_MS,
      // One device never reaches another: it publishes only to the device→server topic (its own,
      // when the topic names the MAC), subscribes only to its own server→device topic, and nothing
      // is retained or queued (QoS 0 only), so a device that leaves leaves nothing behind.
      authorizePublish: (client, packet, cb) => {
        packet.retain = false;
        cb(this.mayPublish(client, packet.topic) ? null : new Error('a device publishes to its own device→server topic only'));
      },
      authorizeSubscribe: (client, sub, cb) => cb(null, client && this.ownTopic(client) === sub.topic ? { ...sub, qos: 0 } : null),
      authorizeForward: (client, packet) => (client && this.ownTopic(client) === packet.topic ? packet : null),
    } as Parameters<typeof Aedes.createBroker>[0]);
    this.broker = broker;
    broker.on('clientReady', (client) => this.onClient(client));
    broker.on('clientDisconnect', (client) => this.onGone(client));
    broker.on('publish', (packet, client) => {
      if (!client || this.fromDevice.match(packet.topic) === undefined) return;
      const text = packet.payload.toString();
      if (this.sessions.has(client)) return this.fromClient(client, text);
      // aedes emits clientReady only after CONNACK has gone out and its queue is flushed, so a device
      // that says hello right after CONNACK can publish first: keep a few messages until it is ready.
      const early = this.early.get(client) ?? [];
      if (early.length < MAX_EARLY_MESSAGES) early.push(text);
      this.early.set(client, early);
    });
    const handle = (socket: Socket) => {
      const refused = this.pending.admit(socket, this.deviceAddress(socket) ?? '');
      if (refused) {
        this.warnings.line('too many waiting', `closed a connection from ${this.deviceAddress(socket)}: ${refused}`);
        return void socket.destroy();
      }
      // Registered before aedes reads the socket, so an oversized packet is refused on its header.
      const limit = new MqttFrameLimit(MAX_FRAME_BYTES);
      socket.on('data', (chunk: Buffer) => {
        if (limit.accept(chunk)) return;
        this.warnings.line('oversized packet', `closed an MQTT connection from ${this.deviceAddress(socket)}: a packet over ${MAX_FRAME_BYTES / 1024} KiB`);
        socket.destroy();
      });
      broker.handle(socket);
    };
    const server = createServer((socket) => {
      // Without it Nagle holds the second of two quick publishes (stt, tts start) for the device's
      // delayed ACK (~40 ms), and the device meets audio before it entered its Speaking state.
      socket.setNoDelay(true);
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      if (!this.settings.proxyProtocol) return handle(socket);
      if (!isBalancer(socket.remoteAddress, this.settings.balancers)) {
        // Only a listed balancer may say who the device is: anyone else could claim any address.
        this.warnings.line(
          'not a balancer',
          `closed a connection from ${socket.remoteAddress}: not one of the listener's balancers, so its PROXY header is not believed`,
        );
        return void socket.destroy();
      }
      readProxyHeader(socket).then(
        (address) => {
          this.proxiedAddress.set(socket, address);
          handle(socket);
        },
        (err: Error) => {
          this.warnings.line('no PROXY header', `closed a connection from ${socket.remoteAddress}: ${err.message} (the listener expects the PROXY protocol)`);
          socket.destroy();
        },
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: this.settings.port ?? DEFAULT_GATEWAY_PORT, host: this.settings.bind || DEFAULT_BIND, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  async close(): Promise<void> {
    this.warnings.flush();
    this.audio?.closeAll();
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
      this.warnings.line('refused MQTT client', `refused MQTT client: ${message}`);
      cb(Object.assign(new Error(message), { returnCode }) as AuthenticateError, false);
    };
    if (!deviceId) return fail(2, 'client id names no device (expected GID_<group>@@@<mac_>@@@<uuid>)');
    const credential = this.gate.checkToken(password);
    if (!credential.ok) return fail(5, `device ${deviceId}: ${credential.message}`);
    const admitted = this.gate.checkDevice(deviceId, credential, this.registry, { clientId: client.id.split('@@@')[2], canBind: false });
    if (!admitted.ok) return fail(5, admitted.message);
    if (credential.authenticated) this.authenticated.add(client);
    const conn = (client as unknown as { conn?: Socket }).conn;
    if (conn) this.pending.settle(conn);
    cb(null, true);
  }

  private onClient(client: Client): void {
    const early = this.early.get(client) ?? [];
    this.early.delete(client);
    const deviceId = deviceIdFromMqttClientId(client.id);
    if (!deviceId) return;
    const session = new DeviceSession({
      id: deviceId,
      clientId: client.id,
      transport: 'mqtt-gateway',
      ids: this.ids,
      requestTimeoutMs: this.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      vision: this.settings.vision,
      log: this.runtime.log,
      link: {
        send: (text) => this.publishTo(client, deviceId, text),
        close: () => client.close(),
      },
    });
    // Checked again: another client for this id may have connected while this one was admitted.
    if (!this.registry.add(session, this.authenticated.has(client))) {
      this.runtime.log?.warn(`esp32 gateway: refused MQTT client: device ${deviceId} is connected already and the new connection has no token`);
      client.close();
      return;
    }
    this.sessions.set(client, session);
    session.start().catch(() => undefined);
    for (const text of early) this.fromClient(client, text);
  }

  private fromClient(client: Client, text: string): void {
    const session = this.sessions.get(client);
    if (!session) return;
    session.handleText(text);
    const conn = (client as unknown as { conn?: Socket }).conn;
    this.audio?.handleText(
      client,
      {
        deviceId: session.id,
        send: (m) => this.publishTo(client, session.id, m),
        localAddress: conn?.localAddress,
        remoteAddress: conn && this.deviceAddress(conn),
      },
      text,
    );
  }

  /** The device's address: its PROXY header's when behind a balancer, else the connection's peer. */
  private deviceAddress(socket: Socket): string | undefined {
    return this.proxiedAddress.get(socket) ?? socket.remoteAddress;
  }

  /** The server→device topic of the client's own device; undefined for a client naming no device. */
  private ownTopic(client: Client): string | undefined {
    const deviceId = deviceIdFromMqttClientId(client.id);
    return deviceId ? deviceTopicFor(this.deviceTopic, deviceId) : undefined;
  }

  /** The device→server topic, and when it names a MAC, this device's own. */
  private mayPublish(client: Client | null, topic: string): boolean {
    const deviceId = client ? deviceIdFromMqttClientId(client.id) : undefined;
    if (!deviceId) return false;
    const named = this.fromDevice.match(topic);
    return named !== undefined && (named === null || normalizeDeviceId(named) === deviceId);
  }

  /** Writes to the device's topic on its own connection (stock firmware never subscribes). */
  private publishTo(client: Client, deviceId: string, message: string | Record<string, unknown>): void {
    const payload = Buffer.from(typeof message === 'string' ? message : JSON.stringify(message));
    client.publish({ cmd: 'publish', topic: deviceTopicFor(this.deviceTopic, deviceId), payload, qos: 0, retain: false, dup: false }, () => undefined);
  }

  private onGone(client: Client): void {
    this.early.delete(client);
    this.audio?.close(client);
    const session = this.sessions.get(client);
    if (!session) return;
    this.sessions.delete(client);
    session.handleClosed();
  }
}

/** True for a peer whose PROXY header is believed: a listed balancer, or loopback when none is listed. */
export function isBalancer(address: string | undefined, balancers: string[] | undefined): boolean {
  const peer = (address ?? '').replace(/^::ffff:/i, '');
  if (!balancers?.length) return peer === '::1' || /^127\./.test(peer);
  return balancers.some((b) => b.replace(/^::ffff:/i, '') === peer);
}
