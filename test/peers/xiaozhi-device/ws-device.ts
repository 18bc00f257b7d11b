// A xiaozhi device on WebSocket, as firmware 2.4.2 + esp-ml307 behave: the handshake headers
// (Authorization, Client-Id, Device-Id, Protocol-Version), the hello sent right after the upgrade,
// a 10 s wait for the server hello, binary frames for audio, MCP replies wrapped as
// {"session_id","type":"mcp","payload"} by string concatenation, and a TCP drop without a close
// frame when the conversation ends (the server sees 1006).
import { parseJsonOrUndefined } from '../parse-json';
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { FirmwareMcpServer, type FirmwareOptions } from './firmware-mcp';
import type { DeviceFixture } from './fixtures';

export interface WsDeviceOptions {
  url: string;
  deviceId: string;
  clientId?: string;
  token?: string;
  protocolVersion?: string;
  fixture: DeviceFixture;
  firmware?: FirmwareOptions;
  /** Send Device-Id/Client-Id/Authorization as query parameters instead of headers (browser clients). */
  credentialsInQuery?: boolean;
  /** false: a device that never says hello. */
  sendHello?: boolean;
  /** The Origin header a browser adds (firmware sends none). */
  origin?: string;
}

export class XiaozhiWsDevice extends EventEmitter {
  readonly firmware: FirmwareMcpServer;
  readonly clientId: string;
  sessionId = '';
  /** Every text frame the server sent, parsed. */
  readonly fromServer: any[] = [];
  readonly serverHello: Promise<any>;
  readonly closed: Promise<{ code: number; reason: string }>;
  private constructor(
    readonly ws: WebSocket,
    readonly opts: WsDeviceOptions,
  ) {
    super();
    this.clientId = opts.clientId ?? randomUUID();
    this.firmware = new FirmwareMcpServer(opts.fixture, opts.firmware);
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.serverHello = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('SERVER_TIMEOUT: no server hello within 10 s')), 10_000);
      timer.unref();
      this.once('server-hello', (h) => {
        clearTimeout(timer);
        resolve(h);
      });
    });
    this.serverHello.catch(() => undefined);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.onText(data.toString());
    });
    ws.on('error', () => undefined);
  }

  /** Connects and (unless told not to) sends the firmware's hello. Rejects with `status` on HTTP refusals. */
  static connect(opts: WsDeviceOptions): Promise<XiaozhiWsDevice> {
    const clientId = opts.clientId ?? randomUUID();
    const headers: Record<string, string> = {};
    const url = new URL(opts.url);
    const creds: Record<string, string> = { 'Client-Id': clientId, 'Device-Id': opts.deviceId, 'Protocol-Version': opts.protocolVersion ?? '1' };
    if (opts.token) creds.Authorization = opts.token.includes(' ') ? opts.token : `Bearer ${opts.token}`;
    for (const [k, v] of Object.entries(creds)) {
      if (opts.credentialsInQuery && k !== 'Protocol-Version') url.searchParams.set(k.toLowerCase(), v);
      else headers[k] = v;
    }
    const ws = new WebSocket(url, { headers, perMessageDeflate: false, ...(opts.origin ? { origin: opts.origin } : {}) });
    return new Promise((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode }));
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
      ws.once('open', () => {
        ws.off('error', reject);
        const device = new XiaozhiWsDevice(ws, { ...opts, clientId });
        if (opts.sendHello !== false) device.sendText(device.helloFrame());
        resolve(device);
      });
    });
  }

  /** WebsocketProtocol::GetHelloMessage, key order and all. */
  helloFrame(): string {
    const v = Number(this.opts.protocolVersion ?? '1');
    return `{"type":"hello","version":${v},"features":{"mcp":true,"glyph_push":true},"text_font":{"bundle":"noto-v1","charset":"common","size":16,"bpp":4},"transport":"websocket","audio_params":{"format":"opus","sample_rate":16000,"channels":1,"frame_duration":60}}`;
  }

  sendText(raw: string): void {
    this.ws.send(raw);
  }

  sendBinary(bytes: Buffer): void {
    this.ws.send(bytes, { binary: true });
  }

  /** Protocol::SendMcpMessage: the envelope is concatenated around the payload text. */
  sendMcp(payloadText: string): void {
    this.sendText(`{"session_id":"${this.sessionId}","type":"mcp","payload":${payloadText}}`);
  }

  /** CloseAudioChannel: the ml307 WebSocket destructor drops TCP without a close frame. */
  dropTcp(): void {
    (this.ws as any)._socket?.destroy();
  }

  close(): void {
    this.ws.terminate();
  }

  private onText(text: string): void {
    const frame = parseJsonOrUndefined(text);
    if (frame === undefined) return;
    this.fromServer.push(frame);
    if (frame.type === 'hello') {
      if (frame.transport !== 'websocket') return; // the firmware would crash or time out here
      this.sessionId = String(frame.session_id ?? '');
      this.emit('server-hello', frame);
    } else if (frame.type === 'mcp' && frame.payload && typeof frame.payload === 'object') {
      this.firmware.handle(frame.payload, (reply) => {
        if (this.ws.readyState === WebSocket.OPEN) this.sendMcp(reply);
      });
    } else {
      this.emit('server-message', frame);
    }
  }
}
