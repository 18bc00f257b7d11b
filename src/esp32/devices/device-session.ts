// One connection of one xiaozhi device = one MCP session (every WebSocket connection is a new
// conversation on the device, so initialize and tools/list are redone each time). The session
// answers the device hello, runs the handshake, pages through tools/list, turns everything else
// the device says into events, and fails pending calls the moment the connection is gone.
import { CLIENT_INFO } from '../../mcp/settings/client-info';
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { CallToolResult, Tool } from '../../mcp/call/tool-provider';
import { McpNodeError } from '../../errors';
import { listAllTools } from '../../mcp/lenient/list-all-tools';
import { formatWarning, type ListWarning } from '../../mcp/lenient/lenient-list';
import { readToolPage } from './tool-pages';
import { readCallResultLeniently, recordLeniency } from '../../mcp/lenient/lenient-result';
import { DeviceRpcClient, IdAllocator, type JsonRpcPayload } from './rpc-client';
import { parseDeviceFrame, type DeviceFrame } from './frame-parser';

export type Esp32Transport = 'websocket' | 'mqtt' | 'mqtt-gateway';

/** What a listener gives a session to talk back on: one text frame / one MQTT publish. */
export interface DeviceLink {
  send(text: string): void;
  close(): void;
}

export interface ServerInfo {
  name: string;
  version?: string;
}

export interface DeviceInfo {
  id: string;
  clientId?: string;
  sessionId: string;
  transport: Esp32Transport;
  serverInfo?: ServerInfo;
}

export type DeviceEventTopic =
  | 'connected'
  | 'tools'
  | 'notification'
  | 'message'
  | 'disconnected'
  | 'utterance'
  | 'transcript'
  | 'tool_call'
  | 'assist_error'
  // a device that is not paired asked through the OTA check and speaks its code (./pairing-book.ts)
  | 'pairing';

export interface DeviceEvent {
  topic: DeviceEventTopic;
  device: DeviceInfo;
  payload: unknown;
  /** utterance: the wake word the device detected before it listened */
  wakeWord?: string;
  /** more fields of the message (assist transcripts: role, conversationId) */
  fields?: Record<string, unknown>;
}

export interface Logger {
  debug(m: string): void;
  warn(m: string): void;
}

export interface SessionOptions {
  id: string;
  clientId?: string;
  transport: Esp32Transport;
  link: DeviceLink;
  ids: IdAllocator;
  /** Timeout of the handshake requests (initialize, each tools/list page). */
  requestTimeoutMs: number;
  /** `{url, token}` offered in initialize capabilities; the firmware's camera tool posts there. */
  vision?: { url: string; token?: string };
  /** Protocol-Version header of the WebSocket upgrade (binary audio framing, not MCP). */
  wireProtocolVersion?: string;
  /** WebSocket: close a connection that sends no hello within this time (default 10 s). */
  helloTimeoutMs?: number;
  /** WebSocket: fields to merge into the hello answer (the audio channel's `audio_params`). */
  onHello?: (hello: DeviceFrame) => object | undefined;
  log?: Logger;
}

export type SessionState = 'waiting-hello' | 'initializing' | 'listing' | 'ready' | 'failed' | 'closed';

const DEFAULT_AUDIO_PARAMS = { format: 'opus', sample_rate: 16000, channels: 1, frame_duration: 60 };

export class DeviceSession extends EventEmitter {
  readonly id: string;
  readonly clientId?: string;
  readonly transport: Esp32Transport;
  readonly sessionId = randomUUID();
  readonly rpc: DeviceRpcClient;
  state: SessionState;
  serverInfo?: ServerInfo;
  /** MCP revision the device answered initialize with (the firmware says 2024-11-05). */
  protocolVersion?: string;
  /** Every tool the device lists with `withUserTools:true`, user-only ones included. */
  tools: Tool[] = [];
  pages = 0;
  /** What the lenient reading of the last tools/list repaired or left out. */
  listWarnings: ListWarning[] = [];
  private readonly loggedWarnings = new Set<string>();
  failure?: Error;
  /** `connected` went out; only then does the flow hear `disconnected`. */
  announced = false;
  private readonly log?: Logger;
  private readonly opts: SessionOptions;
  private listing?: Promise<Tool[]>;
  private helloTimer?: NodeJS.Timeout;

  constructor(opts: SessionOptions) {
    super();
    this.setMaxListeners(0); // every call waiting for readiness listens for a moment
    this.opts = opts;
    this.id = opts.id;
    this.clientId = opts.clientId;
    this.transport = opts.transport;
    this.log = opts.log;
    this.state = opts.transport === 'websocket' ? 'waiting-hello' : 'initializing';
    this.rpc = new DeviceRpcClient((payload) => this.sendMcp(payload), opts.ids, `ESP32 device ${opts.id}`);
    if (this.state === 'waiting-hello') {
      // A connection that never says hello is not a device we can use; do not let it hold a route.
      this.helloTimer = setTimeout(() => {
        if (this.state !== 'waiting-hello') return;
        this.log?.warn(`esp32 ${this.id}: no hello within ${(opts.helloTimeoutMs ?? 10_000) / 1000} s, closing`);
        this.close();
      }, opts.helloTimeoutMs ?? 10_000);
      this.helloTimer.unref?.();
    }
  }

  info(): DeviceInfo {
    return { id: this.id, clientId: this.clientId, sessionId: this.sessionId, transport: this.transport, serverInfo: this.serverInfo };
  }

  /** One text frame (WebSocket) or one MQTT payload from the device. */
  handleText(text: string): void {
    if (this.state === 'closed') return;
    const frame = parseDeviceFrame(text);
    if (!frame) {
      this.log?.debug(`esp32 ${this.id}: dropped a malformed frame (${text.length} chars)`);
      return;
    }
    switch (frame.type) {
      case 'hello':
        this.onHello(frame);
        return;
      case 'mcp':
        this.onMcp(frame.payload);
        return;
      case undefined:
        // The firmware drops text frames without `type` too.
        this.log?.debug(`esp32 ${this.id}: dropped a frame without "type"`);
        return;
      default:
        // listen / abort / goodbye / stt …: the flow may want them; MCP continues (an MQTT
        // goodbye ends only the audio channel, the device stays reachable).
        this.emitEvent('message', frame);
    }
  }

  /** MQTT: the device is reachable as soon as it is connected; no hello is needed for MCP. */
  start(): Promise<void> {
    return this.handshake();
  }

  /** Resolves once tools are listed; rejects if the handshake failed or the device left. */
  whenReady(timeoutMs: number): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.state === 'failed') return Promise.reject(this.failure);
    if (this.state === 'closed') return Promise.reject(this.goneError('is not connected'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('state', onState);
        reject(new McpNodeError(`ESP32 device ${this.id} did not finish listing its tools within ${timeoutMs / 1000} s`, 'timeout', 'TIMEOUT'));
      }, timeoutMs);
      const onState = () => {
        if (this.state === 'ready' || this.state === 'failed' || this.state === 'closed') {
          clearTimeout(timer);
          this.off('state', onState);
          if (this.state === 'ready') resolve();
          else if (this.state === 'failed') reject(this.failure);
          else reject(this.goneError('disconnected'));
        }
      };
      this.on('state', onState);
    });
  }

  /** Walks every tools/list page again (the cached list stays until the walk succeeds). */
  refreshTools(): Promise<Tool[]> {
    if (!this.listing) {
      this.listing = this.listAllPages().finally(() => {
        this.listing = undefined;
      });
    }
    return this.listing;
  }

  async callTool(name: string, args: Record<string, unknown>, timeoutMs: number, signal?: AbortSignal): Promise<CallToolResult> {
    const raw = await this.rpc.request('tools/call', { name, arguments: args }, { timeoutMs, signal, what: `tools/call "${name}"` });
    let read: ReturnType<typeof readCallResultLeniently>;
    try {
      read = readCallResultLeniently(name, raw);
    } catch (err) {
      throw new McpNodeError(`ESP32 device ${this.id}: ${(err as Error).message}`, 'bad result', 'BAD_RESULT');
    }
    recordLeniency(read.result, { raw, warnings: read.warnings });
    this.logWarnings(read.warnings);
    return read.result;
  }

  /** The connection is gone: pending calls fail now, not at their timeout. */
  handleClosed(code?: number, reason?: string): void {
    if (this.state === 'closed') return;
    clearTimeout(this.helloTimer);
    const why = code === 1006 ? 'dropped the connection (1006)' : `disconnected${code ? ` (${code})` : ''}`;
    this.rpc.close(this.goneError(why));
    this.setState('closed');
    if (this.announced) this.emitEvent('disconnected', { code, reason: reason || undefined });
    this.removeAllListeners('state');
  }

  /** Server side: close the connection (the link reports back through handleClosed). */
  close(): void {
    this.opts.link.close();
  }

  private onHello(frame: DeviceFrame): void {
    if (this.transport !== 'websocket') {
      // MQTT hello opens an audio channel over UDP, which this node does not serve.
      this.emitEvent('message', frame);
      return;
    }
    if (this.state !== 'waiting-hello') {
      // The firmware says hello once per connection; answering every repeat would let one
      // connection make us send (and re-handshake) without end.
      this.log?.debug(`esp32 ${this.id}: ignored a repeated hello on the same connection`);
      return;
    }
    clearTimeout(this.helloTimer);
    // The device waits 10 s for this and dereferences `transport` without a null check.
    const audio = frame.audio_params && typeof frame.audio_params === 'object' ? frame.audio_params : DEFAULT_AUDIO_PARAMS;
    const voice = this.opts.onHello?.(frame);
    this.opts.link.send(JSON.stringify({ type: 'hello', transport: 'websocket', session_id: this.sessionId, audio_params: audio, ...voice }));
    const features = frame.features as { mcp?: unknown } | undefined;
    if (features?.mcp === true) {
      this.handshake().catch(() => undefined);
    } else {
      // Firmware without MCP: still a connected device, just without tools.
      this.setState('ready');
      this.emitEvent('connected', { hello: frame, wireProtocolVersion: this.opts.wireProtocolVersion });
      this.emitEvent('tools', []);
    }
  }

  private onMcp(payload: unknown): void {
    if (!payload || typeof payload !== 'object') {
      this.log?.debug(`esp32 ${this.id}: dropped an mcp frame without a payload object`);
      return;
    }
    const p = payload as JsonRpcPayload;
    if (this.rpc.handleResponse(p)) return;
    if (typeof p.method === 'string') {
      // Stock firmware sends no notifications; custom boards may (e.g. notifications/state_changed).
      if (p.method === 'notifications/tools/list_changed')
        this.refreshTools().then(
          (t) => this.emitEvent('tools', t),
          () => undefined,
        );
      this.emitEvent('notification', p);
      return;
    }
    this.log?.debug(`esp32 ${this.id}: ignored an unsolicited reply (id ${String(p.id)})`);
  }

  private async handshake(): Promise<void> {
    this.setState('initializing');
    try {
      const capabilities: Record<string, unknown> = {};
      if (this.opts.vision?.url) {
        capabilities.vision = this.opts.vision.token ? { url: this.opts.vision.url, token: this.opts.vision.token } : { url: this.opts.vision.url };
      }
      const init = (await this.rpc.request(
        'initialize',
        { protocolVersion: '2024-11-05', capabilities, clientInfo: CLIENT_INFO },
        { timeoutMs: this.opts.requestTimeoutMs },
      )) as { serverInfo?: ServerInfo; protocolVersion?: string; capabilities?: unknown } | undefined;
      if (init?.serverInfo && typeof init.serverInfo.name === 'string') this.serverInfo = init.serverInfo;
      if (typeof init?.protocolVersion === 'string') this.protocolVersion = init.protocolVersion;
      this.rpc.notify('notifications/initialized');
      this.emitEvent('connected', {
        serverInfo: this.serverInfo,
        protocolVersion: this.protocolVersion,
        capabilities: init?.capabilities,
        ...(this.opts.wireProtocolVersion ? { wireProtocolVersion: this.opts.wireProtocolVersion } : {}),
      });
      this.setState('listing');
      await this.refreshTools();
      this.setState('ready');
      this.emitEvent('tools', this.tools);
    } catch (err) {
      if (this.state === 'closed') throw err;
      this.failure = err as Error;
      this.log?.warn(`esp32 ${this.id}: MCP handshake failed: ${(err as Error).message}`);
      this.setState('failed');
      throw err;
    }
  }

  private async listAllPages(): Promise<Tool[]> {
    const where = `ESP32 device ${this.id}`;
    const listed = await listAllTools(async (cursor) => {
      // The firmware expects `cursor` on every request, "" for the first page.
      const raw = await this.rpc.request(
        'tools/list',
        { cursor: cursor ?? '', withUserTools: true },
        { timeoutMs: this.opts.requestTimeoutMs, what: cursor ? `tools/list (cursor "${cursor}")` : 'tools/list' },
      );
      try {
        return readToolPage(raw) as { items: Tool[]; nextCursor?: string; warnings: ListWarning[] };
      } catch (err) {
        throw new McpNodeError(`${where}: ${(err as Error).message}`, 'bad tools/list', 'BAD_RESULT');
      }
    }, where);
    this.tools = listed.tools;
    this.pages = listed.pages;
    this.listWarnings = listed.warnings;
    this.logWarnings(listed.warnings);
    return listed.tools;
  }

  /** Each repair or omission once per connection in the log. */
  private logWarnings(warnings: ListWarning[]): void {
    for (const w of warnings) {
      const line = formatWarning(w);
      if (this.loggedWarnings.has(line)) continue;
      this.loggedWarnings.add(line);
      this.log?.warn(`esp32 ${this.id}: ${line}`);
    }
  }

  private sendMcp(payload: Record<string, unknown>): void {
    if (this.state === 'closed') throw new Error('connection closed');
    // The device ignores an incoming session_id; WebSocket frames carry it as the transcript shows,
    // MQTT frames leave it out as the official gateway does.
    const envelope = this.transport === 'websocket' ? { session_id: this.sessionId, type: 'mcp', payload } : { type: 'mcp', payload };
    this.opts.link.send(JSON.stringify(envelope));
  }

  private setState(state: SessionState): void {
    if (this.state === state) return;
    this.state = state;
    this.emit('state', state);
  }

  private emitEvent(topic: DeviceEvent['topic'], payload: unknown): void {
    if (topic === 'connected') this.announced = true;
    this.emit('event', { topic, device: this.info(), payload } satisfies DeviceEvent);
  }

  private goneError(why: string): McpNodeError {
    return new McpNodeError(`ESP32 device ${this.id} ${why}`, 'device gone', 'DEVICE_DISCONNECTED');
  }
}

/** User-only tools (firmware ≥2.0) carry `annotations.audience` containing "user". */
export function isUserOnlyTool(tool: Tool): boolean {
  const audience = (tool.annotations as { audience?: unknown } | undefined)?.audience;
  return Array.isArray(audience) && audience.includes('user');
}
