// Accepts devices over WebSocket on an existing HTTP server's `upgrade` event (Node-RED's own, the
// way core's websocket nodes attach). The firmware's handshake headers (Authorization,
// Protocol-Version, Device-Id, Client-Id) are also read from query parameters, as
// xiaozhi-esp32-server does for browser clients. Frames over 1 MiB close the socket with 1009 (ws's
// maxPayload); binary frames are audio and skipped.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { DeviceRegistry } from './device-registry';
import { DeviceSession } from './device-session';
import { normalizeDeviceId } from './device-id';
import { IdAllocator } from './rpc-client';
import { DEFAULT_HEARTBEAT_MS, DEFAULT_PATH, DEFAULT_REQUEST_TIMEOUT_MS, MAX_FRAME_BYTES, type Esp32Listener, type Esp32ListenerSettings } from './listener';

export class WebSocketDeviceListener implements Esp32Listener {
  readonly transport = 'websocket' as const;
  readonly registry = new DeviceRegistry();
  readonly path: string;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private readonly ids = new IdAllocator();
  private readonly tokens: string[];
  private readonly allow: Set<string>;
  private closed = false;
  private heartbeat?: NodeJS.Timeout;
  /** Sockets that have not answered the last ping yet. */
  private readonly awaitingPong = new WeakSet<WebSocket>();

  constructor(private readonly settings: Esp32ListenerSettings) {
    this.path = normalizePath(settings.path || DEFAULT_PATH);
    this.tokens = (settings.tokens ?? []).filter(Boolean);
    this.allow = new Set((settings.allow ?? []).map(normalizeDeviceId));
  }

  get id(): string {
    return this.settings.id;
  }

  async start(): Promise<void> {
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
    if (this.tokens.length && !this.tokenAccepted(header('authorization'))) {
      reject(socket, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer' });
      return true;
    }
    const rawId = header('device-id');
    if (!rawId) {
      reject(socket, 400, 'Bad Request', {}, 'Device-Id header required');
      return true;
    }
    const deviceId = normalizeDeviceId(rawId);
    if (this.allow.size && !this.allow.has(deviceId)) {
      this.settings.log?.warn(`esp32: refused device ${deviceId} (not in the allow list)`);
      reject(socket, 403, 'Forbidden');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, deviceId, header('client-id'), header('protocol-version')));
    return true;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    const clients = [...this.wss.clients];
    // Devices never answer a close frame (esp-ml307), so a short grace and then terminate.
    await Promise.race([
      Promise.all(clients.map((ws) => new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.close(1001, 'server closing');
      }))),
      new Promise((r) => setTimeout(r, 200)),
    ]);
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(ws: WebSocket, deviceId: string, clientId?: string, wireProtocolVersion?: string): void {
    const session = new DeviceSession({
      id: deviceId,
      clientId,
      transport: 'websocket',
      wireProtocolVersion,
      helloTimeoutMs: this.settings.helloTimeoutMs,
      ids: this.ids,
      requestTimeoutMs: this.settings.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      vision: this.settings.vision,
      log: this.settings.log,
      link: {
        send: (text) => ws.send(text),
        close: () => {
          ws.close(1000);
          // The device does not answer close frames; do not wait ws's 30 s for one.
          setTimeout(() => ws.terminate(), 200).unref();
        },
      },
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return; // audio
      session.handleText(data.toString());
    });
    ws.on('pong', () => this.awaitingPong.delete(ws));
    ws.on('error', (err) => this.settings.log?.debug(`esp32 ${deviceId}: ${err.message}`));
    ws.on('close', (code, reason) => session.handleClosed(code, reason.toString()));
    this.registry.add(session);
  }

  private tokenAccepted(authorization: string | undefined): boolean {
    if (!authorization) return false;
    const given = Buffer.from(authorization.replace(/^Bearer\s+/i, '').trim());
    return this.tokens.some((t) => {
      const want = Buffer.from(t);
      return want.length === given.length && timingSafeEqual(want, given);
    });
  }
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
