// Accepts devices over WebSocket, either on an existing HTTP server's `upgrade` event (Node-RED's
// own, the way core's websocket nodes attach) or on a server of its own (`port`, `bind`: in the
// Home Assistant add-on Node-RED sits behind nginx on 1880, where a device's upgrade does not get
// through). The firmware's handshake headers (Authorization, Protocol-Version, Device-Id,
// Client-Id) are also read from query parameters, as xiaozhi-esp32-server does for browser
// clients. Admission follows device-gate.ts. Frames over 1 MiB close the socket with 1009 (ws's
// maxPayload). Binary frames are audio: with voice on, the device hello opens an audio channel
// (the runtime's `audio`) on the same connection and frames go to it; with voice "off" they are skipped.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { handleOtaHttp } from '../ota/ota-http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { DeviceGate } from '../devices/device-gate';
import { DeviceRegistry } from '../devices/device-registry';
import { DeviceSession, type DeviceEvent } from '../devices/device-session';
import { normalizeDeviceId } from '../devices/device-id';
import { IdAllocator } from '../devices/rpc-client';
import { bearerToken } from '../devices/token-check';
import {
  DEFAULT_BIND,
  LISTEN_BACKLOG,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_PATH,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_FRAME_BYTES,
  type AudioChannel,
  type Esp32Listener,
  type Esp32ListenerSettings,
  type ListenerRuntime,
} from '../listener';
import { shorten } from '../../text';

/** Paths taken on a shared HTTP server, so two listeners never answer the same upgrade. */
const claimedPaths = new WeakMap<Server, Set<string>>();

export class WebSocketDeviceListener implements Esp32Listener {
  readonly transport = 'websocket' as const;
  readonly registry = new DeviceRegistry();
  readonly path: string;
  readonly gate: DeviceGate;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly ids = new IdAllocator();
  private closed = false;
  private heartbeat?: NodeJS.Timeout;
  private ownServer?: Server;
  private attachedTo?: Server;
  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // On a shared server, paths that are not ours are left to other listeners; on our own, refused.
    if (!this.handleUpgrade(req, socket, head) && this.ownServer) reject(socket, 404, 'Not Found');
  };
  /** Sockets that have not answered the last ping yet. */
  private readonly awaitingPong = new WeakSet<WebSocket>();

  constructor(
    private readonly settings: Esp32ListenerSettings,
    private readonly runtime: ListenerRuntime = {},
  ) {
    this.path = normalizePath(settings.path || DEFAULT_PATH);
    this.gate = new DeviceGate(settings, runtime.pairing);
  }

  get port(): number | undefined {
    const a = this.ownServer?.address();
    return a && typeof a === 'object' ? a.port : undefined;
  }

  async start(): Promise<void> {
    if (this.settings.port !== undefined) await this.listenOnOwnPort(this.settings.port);
    else if (this.runtime.httpServer) this.attach(this.runtime.httpServer);
    const every = this.settings.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (every > 0 && !this.heartbeat) {
      // One timer for all devices: a device that did not answer the previous ping is gone.
      this.heartbeat = setInterval(() => {
        for (const ws of this.wss.clients) {
          if (this.awaitingPong.has(ws)) {
            ws.terminate();
            continue;
          }
          this.awaitingPong.add(ws);
          ws.ping();
        }
      }, every);
      this.heartbeat.unref();
    }
  }

  /** For an HTTP server's `upgrade` event; false when the path is not ours (leave the socket alone). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(req.url ?? '/', 'http://device');
    if (normalizePath(url.pathname) !== this.path) return false;
    if (this.closed) {
      reject(socket, 503, 'Service Unavailable');
      return true;
    }
    const query = new Map([...url.searchParams].map(([k, v]) => [k.toLowerCase(), v]));
    const header = (name: string) => {
      const h = req.headers[name];
      return (Array.isArray(h) ? h[0] : h) ?? query.get(name) ?? query.get(name.replace('-', '_'));
    };
    const rawId = header('device-id');
    const credential = this.gate.checkToken(bearerToken(header('authorization')));
    if (!credential.ok) {
      this.refused(rawId, credential.message);
      reject(socket, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' });
      return true;
    }
    // Firmware never sends Origin; a browser always does. Without a token that is any web page in a
    // LAN user's browser posing as a device: refused. With a token, a browser client (such as
    // xiaozhi-esp32-server's test page) proves itself like any device.
    if (req.headers.origin !== undefined && !credential.authenticated) {
      this.refused(rawId, `a browser page (Origin ${shorten(String(req.headers.origin), 80)}) may connect only with a token`);
      reject(socket, 403, 'Forbidden');
      return true;
    }
    if (!rawId) {
      reject(socket, 400, 'Bad Request', {}, 'Device-Id header required');
      return true;
    }
    const deviceId = normalizeDeviceId(rawId);
    const admitted = this.gate.checkDevice(deviceId, credential, this.registry, { clientId: header('client-id'), canBind: true });
    if (!admitted.ok) {
      this.refused(deviceId, admitted.message);
      if (admitted.refusal === 'claimed') reject(socket, 409, 'Conflict');
      else reject(socket, 403, 'Forbidden');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, deviceId, credential.authenticated, header('client-id'), header('protocol-version')));
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.detach();
    const clients = [...this.wss.clients];
    // Devices never answer a close frame (esp-ml307), so a short grace and then terminate.
    await Promise.race([
      Promise.all(
        clients.map(
          (ws) =>
            new Promise<void>((resolve) => {
              ws.once('close', () => resolve());
              ws.close(1001, 'server closing');
            }),
        ),
      ),
      new Promise((r) => setTimeout(r, 200)),
    ]);
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
    const own = this.ownServer;
    if (own?.listening) {
      own.closeAllConnections();
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  }

  private attach(server: Server): void {
    const taken = claimedPaths.get(server) ?? new Set<string>();
    if (taken.has(this.path)) throw new Error(`another esp32-listener already listens on ${this.path}: give this one another path or its own port`);
    taken.add(this.path);
    claimedPaths.set(server, taken);
    server.on('upgrade', this.onUpgrade);
    this.attachedTo = server;
  }

  private detach(): void {
    const server = this.attachedTo;
    if (!server) return;
    server.removeListener('upgrade', this.onUpgrade);
    claimedPaths.get(server)?.delete(this.path);
    this.attachedTo = undefined;
  }

  private async listenOnOwnPort(port: number): Promise<void> {
    // Plain HTTP on the listener's own port: the OTA check when this listener answers it, else 426.
    const server = createServer((req, res) => {
      if (this.runtime.ota && handleOtaHttp(this.runtime.ota, req, res)) return;
      res.writeHead(426, { 'Content-Type': 'text/plain' }).end('WebSocket only (xiaozhi devices)');
    });
    server.on('upgrade', this.onUpgrade);
    this.ownServer = server;
    await new Promise<void>((resolve, rejectStart) => {
      server.once('error', rejectStart);
      server.listen({ port, host: this.settings.bind || DEFAULT_BIND, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', rejectStart);
        resolve();
      });
    });
  }

  private accept(ws: WebSocket, deviceId: string, authenticated: boolean, clientId?: string, wireProtocolVersion?: string): void {
    // Checked again: another connection for this id may have been accepted during the upgrade.
    if (!authenticated && this.registry.isClaimed(deviceId)) {
      this.refused(deviceId, `device ${deviceId} is connected already and the new connection has no token`);
      ws.close(1008, 'device id in use');
      setTimeout(() => ws.terminate(), 200).unref();
      return;
    }
    let channel: AudioChannel | undefined;
    const audio = this.runtime.audio;
    const session: DeviceSession = new DeviceSession({
      id: deviceId,
      clientId,
      transport: 'websocket',
      wireProtocolVersion,
      helloTimeoutMs: this.settings.helloTimeoutMs,
      onHello: audio
        ? (hello) => {
            channel = audio.openWebSocket(
              { id: deviceId, transport: 'websocket', sessionId: session.sessionId, audioParams: objectOrUndefined(hello.audio_params) },
              wireProtocolVersion ?? hello.version,
              {
                json: (m) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m)),
                binary: (b) => ws.readyState === ws.OPEN && ws.send(b, { binary: true }),
              },
            );
            return channel.hello;
          }
        : undefined,
      ids: this.ids,
      requestTimeoutMs: this.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      vision: this.settings.vision,
      log: this.runtime.log,
      link: {
        send: (text) => ws.send(text),
        close: () => {
          ws.close(1000);
          // The device does not answer close frames; do not wait ws's 30 s for one.
          setTimeout(() => ws.terminate(), 200).unref();
        },
      },
    });
    ws.on('message', (data: Buffer, isBinary) => {
      // Audio before the hello (or with voice "off") has no channel and is dropped.
      if (isBinary) return void channel?.handleBinary(data);
      session.handleText(data.toString());
    });
    // listen / abort reach the conversation; the flow still sees them as `message` events.
    session.on('event', (e: DeviceEvent) => e.topic === 'message' && channel?.handleJson(e.payload));
    ws.on('pong', () => this.awaitingPong.delete(ws));
    ws.on('error', (err) => this.runtime.log?.debug(`esp32 ${deviceId}: ${err.message}`));
    ws.on('close', (code, reason) => {
      channel?.close();
      session.handleClosed(code, reason.toString());
    });
    this.registry.add(session, authenticated);
  }

  private refused(deviceId: string | undefined, why: string): void {
    // The id comes from the client: shown short and without control characters.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    const who = deviceId ? ` from ${shorten(normalizeDeviceId(deviceId).replace(/[\x00-\x1f\x7f]/g, '?'), 40)}` : '';
    this.runtime.log?.warn(`esp32: refused a WebSocket connection${who}: ${why}`);
  }
}

export function objectOrUndefined(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function normalizePath(p: string): string {
  const withSlash = p.startsWith('/') ? p : '/' + p;
  return withSlash.length > 1 ? withSlash.replace(/\/+$/, '') : withSlash;
}

function reject(socket: Duplex, status: number, text: string, headers: Record<string, string> = {}, body = text): void {
  const lines = [`HTTP/1.1 ${status} ${text}`, 'Connection: close', 'Content-Type: text/plain', `Content-Length: ${Buffer.byteLength(body)}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  socket.end(lines.join('\r\n') + '\r\n\r\n' + body);
  socket.on('error', () => undefined);
}
