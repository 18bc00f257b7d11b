// A ToolProvider whose MCP server is an ESP32 device that dialled in to an esp32-listener.
// Routing per request: the configured deviceId, else the device named by the message
// (context.deviceId, i.e. msg.device.id), else the only connected device. The provider is a user
// of its listener for its whole life: the listener listens while a server needs its devices.
import type {
  CallToolOptions,
  CallToolResult,
  ListToolsOptions,
  ListToolsResult,
  ProviderState,
  RequestContext,
  ServerIdentity,
  Tool,
  ToolProvider,
} from '../../mcp/call/tool-provider';
import { McpNodeError } from '../../errors';
import type { DeviceSource } from './shared-listener';
import { isUserOnlyTool, type DeviceSession } from '../devices/device-session';
import { normalizeDeviceId } from '../devices/device-id';

export interface Esp32ToolProviderOptions {
  id: string;
  name: string;
  /** The esp32-listener's devices; undefined when the configured listener does not exist. */
  source: DeviceSource | undefined;
  deviceId?: string;
  timeoutMs: number;
}

export function createEsp32ToolProvider(opts: Esp32ToolProviderOptions): ToolProvider {
  return new Esp32ToolProvider(opts);
}

class Esp32ToolProvider implements ToolProvider {
  private readonly listeners = new Set<(s: ProviderState) => void>();
  private current: ProviderState = { kind: 'idle' };
  private readonly fixedDevice?: string;
  private readonly onSourceChange = () => this.refreshState();

  constructor(private readonly opts: Esp32ToolProviderOptions) {
    this.fixedDevice = opts.deviceId?.trim() ? normalizeDeviceId(opts.deviceId) : undefined;
    this.current = this.computeState();
    opts.source?.on('change', this.onSourceChange);
    void opts.source?.register(this);
  }

  identity(context?: RequestContext): ServerIdentity {
    const base: ServerIdentity = { id: this.opts.id, name: this.opts.name };
    const session = this.tryRoute(context);
    if (session?.protocolVersion) base.protocolVersion = session.protocolVersion;
    if (session?.serverInfo) base.serverInfo = { ...session.serverInfo };
    return base;
  }

  async listTools(options: ListToolsOptions = {}): Promise<ListToolsResult> {
    const session = await this.readySession(options.context, options.timeoutMs);
    if (options.refresh) await session.refreshTools();
    const tools = options.userOnly ? session.tools : session.tools.filter((t) => !isUserOnlyTool(t));
    return { tools, pages: session.pages, warnings: [...session.listWarnings], server: this.identity({ deviceId: session.id }) };
  }

  async findTool(name: string, context?: RequestContext): Promise<Tool | undefined> {
    const session = await this.readySession(context);
    // User-only tools are callable even though they are not listed for the AI.
    return session.tools.find((t) => t.name === name);
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    const timeoutMs = options.timeoutMs ?? this.opts.timeoutMs;
    const session = await this.readySession(options.context, timeoutMs);
    return session.callTool(name, args, timeoutMs, options.signal);
  }

  state(): ProviderState {
    return this.current;
  }

  onStateChange(listener: (state: ProviderState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.opts.source?.off('change', this.onSourceChange);
    this.listeners.clear();
    await this.opts.source?.deregister(this);
  }

  private async readySession(context: RequestContext | undefined, timeoutMs = this.opts.timeoutMs): Promise<DeviceSession> {
    const session = this.route(context);
    await session.whenReady(timeoutMs);
    return session;
  }

  private tryRoute(context?: RequestContext): DeviceSession | undefined {
    try {
      return this.route(context);
    } catch {
      return undefined;
    }
  }

  private route(context?: RequestContext): DeviceSession {
    const source = this.opts.source;
    if (!source) {
      throw new McpNodeError(
        `${this.opts.name}: its esp32-listener is missing: choose one in the server's Listener setting`,
        'no listener',
        'ESP32_NO_LISTENER',
      );
    }
    const listener = source.listener;
    if (!listener) {
      throw new McpNodeError(
        `${this.opts.name}: the esp32-listener "${source.name}" is not listening (see its status for why)`,
        'listener down',
        'ESP32_NO_LISTENER',
      );
    }
    const wanted = this.fixedDevice ?? (context?.deviceId ? normalizeDeviceId(context.deviceId) : undefined);
    if (wanted) {
      const s = listener.registry.get(wanted);
      if (!s) {
        const known = listener.registry.list().map((d) => d.id);
        throw new McpNodeError(
          `ESP32 device ${wanted} is not connected to ${this.opts.name}` + (known.length ? ` (connected: ${known.join(', ')})` : ' (no device is connected)'),
          'unknown device',
          'ESP32_UNKNOWN_DEVICE',
        );
      }
      return s;
    }
    const all = listener.registry.list();
    if (all.length === 1) return all[0];
    if (all.length === 0) {
      throw new McpNodeError(`${this.opts.name}: no ESP32 device is connected (wake the device so it connects)`, 'no device', 'ESP32_NO_DEVICE');
    }
    throw new McpNodeError(
      `${this.opts.name}: ${all.length} ESP32 devices are connected (${all.map((d) => d.id).join(', ')}); choose one with the server's deviceId or msg.device.id`,
      'several devices',
      'ESP32_AMBIGUOUS_DEVICE',
    );
  }

  private computeState(): ProviderState {
    const source = this.opts.source;
    if (!source) return { kind: 'error', reason: 'no listener' };
    // The users of the server see why no device can come (a port in use, unusable settings).
    if (source.status().kind === 'failed') return { kind: 'error', reason: 'listener failed' };
    const listener = source.listener;
    if (!listener) return { kind: 'idle' };
    const sessions = this.fixedDevice ? [listener.registry.get(this.fixedDevice)].filter((s): s is DeviceSession => !!s) : listener.registry.list();
    if (sessions.length === 0) return { kind: 'idle' };
    const ready = sessions.filter((s) => s.state === 'ready');
    if (ready.length === 0) {
      const failed = sessions.find((s) => s.state === 'failed');
      return failed ? { kind: 'error', reason: 'device handshake failed' } : { kind: 'connecting' };
    }
    // Several devices: the number of distinct AI-visible tool names among them.
    const names = new Set<string>();
    for (const s of ready) for (const t of s.tools) if (!isUserOnlyTool(t)) names.add(t.name);
    return { kind: 'ready', toolCount: names.size };
  }

  private refreshState(): void {
    const next = this.computeState();
    if (JSON.stringify(next) === JSON.stringify(this.current)) return;
    this.current = next;
    for (const l of this.listeners) l(next);
  }
}
