// The device side of MCP as xiaozhi-esp32 2.4.2 implements it (main/mcp_server.cc), reproduced for
// tests: ParseMessage's silent drops (jsonrpc not "2.0", no string method, notifications, params
// not an object, id not a number), GetToolsList's byte-counted paging (8000 bytes of UTF-8 minus a
// 30-byte margin, cursor = name of the first tool that did not fit, resumed inclusively, no
// nextCursor key on the last page), DoToolCall's argument binding and exact error strings,
// text-only results, error replies with only `message` (not JSON-escaped, like the firmware), and
// tool callbacks that run later on the "main task" so replies can overtake each other.
import type { DeviceFixture, FirmwareTool, PropertySchema } from './fixtures';

const MAX_PAYLOAD_SIZE = 8000;

export interface FirmwareOptions {
  /** Delay before a tool's scheduled callback runs; vary it to make replies arrive out of order. */
  callDelayMs?: (name: string, args: Record<string, unknown>) => number;
  /** Tools whose callback never returns (the request is silently lost). */
  hangingTools?: string[];
  /** Tools whose callback throws this message (e.g. "Failed to capture photo"). */
  failingTools?: Record<string, string>;
}

export interface DeviceState {
  volume: number;
  brightness: number;
  theme: string;
}

type ReturnValue = boolean | number | string | object;

export class FirmwareMcpServer {
  readonly state: DeviceState = { volume: 70, brightness: 75, theme: 'light' };
  /** Every request that passed ParseMessage's checks, for assertions. */
  readonly received: Array<{ id: number; method: string; params?: any }> = [];
  private visionUrl?: string;

  constructor(
    readonly fixture: DeviceFixture,
    private readonly opts: FirmwareOptions = {},
  ) {}

  /**
   * One incoming MCP payload. `reply` gets each outgoing JSON-RPC payload as the exact text the
   * firmware would build; silently dropped requests never call it.
   */
  handle(payload: unknown, reply: (text: string) => void): void {
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return;
    const p = payload as Record<string, unknown>;
    if (p.jsonrpc !== '2.0') return;
    if (typeof p.method !== 'string') return;
    const method = p.method;
    if (method.startsWith('notifications')) return;
    const params = p.params;
    if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return;
    if (typeof p.id !== 'number') return;
    const id = Math.trunc(p.id);
    this.received.push({ id, method, params });
    const prm = params as Record<string, unknown> | undefined;

    if (method === 'initialize') {
      const vision = (prm?.capabilities as any)?.vision;
      if (vision && typeof vision.url === 'string') this.visionUrl = vision.url;
      const { name, version } = this.fixture.serverInfo;
      reply(result(id, `{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"${name}","version":"${version}"}}`));
    } else if (method === 'tools/list') {
      const cursor = typeof prm?.cursor === 'string' ? prm.cursor : '';
      const withUser = typeof prm?.withUserTools === 'boolean' ? prm.withUserTools : false;
      reply(this.toolsList(id, cursor, withUser));
    } else if (method === 'tools/call') {
      if (!prm) return reply(error(id, 'Missing params'));
      if (typeof prm.name !== 'string') return reply(error(id, 'Missing name'));
      const args = prm.arguments;
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args))) return reply(error(id, 'Invalid arguments'));
      this.callTool(id, prm.name, (args ?? {}) as Record<string, unknown>, reply);
    } else {
      reply(error(id, `Method not implemented: ${method}`));
    }
  }

  /** GetToolsList, byte for byte. */
  toolsList(id: number, cursor: string, withUserTools: boolean): string {
    let json = '{"tools":[';
    let foundCursor = cursor === '';
    let nextCursor = '';
    for (const tool of this.fixture.tools) {
      if (!foundCursor) {
        if (tool.name === cursor) foundCursor = true;
        else continue;
      }
      if (!withUserTools && isUserOnly(tool)) continue;
      const toolJson = JSON.stringify(tool) + ',';
      if (Buffer.byteLength(json) + Buffer.byteLength(toolJson) + 30 > MAX_PAYLOAD_SIZE) {
        nextCursor = tool.name;
        break;
      }
      json += toolJson;
    }
    if (json.endsWith(',')) json = json.slice(0, -1);
    if (json.endsWith('[') && this.fixture.tools.length > 0) {
      return error(id, `Failed to add tool ${nextCursor} because of payload size limit`);
    }
    json += nextCursor ? `],"nextCursor":"${nextCursor}"}` : ']}';
    return result(id, json);
  }

  private callTool(id: number, name: string, args: Record<string, unknown>, reply: (text: string) => void): void {
    const tool = this.fixture.tools.find((t) => t.name === name);
    if (!tool) return reply(error(id, `Unknown tool: ${name}`));
    const bound: Record<string, boolean | number | string> = {};
    for (const [prop, schema] of Object.entries(tool.inputSchema.properties)) {
      const value = bindValue(schema, args[prop]);
      if (value === undefined) {
        if (schema.default === undefined) return reply(error(id, `Missing valid argument: ${prop}`));
        bound[prop] = schema.default;
        continue;
      }
      if (typeof value === 'number') {
        if (schema.minimum !== undefined && value < schema.minimum) return reply(error(id, `Value is below minimum allowed: ${schema.minimum}`));
        if (schema.maximum !== undefined && value > schema.maximum) return reply(error(id, `Value exceeds maximum allowed: ${schema.maximum}`));
      }
      bound[prop] = value;
    }
    if (this.opts.hangingTools?.includes(name)) return;
    // Application::Schedule: the callback runs later on the main task.
    const delay = this.opts.callDelayMs?.(name, args) ?? 0;
    setTimeout(() => {
      try {
        reply(result(id, JSON.stringify({ content: [{ type: 'text', text: this.run(name, bound) }], isError: false })));
      } catch (e) {
        reply(error(id, (e as Error).message));
      }
    }, delay);
  }

  private run(name: string, args: Record<string, boolean | number | string>): string {
    const failure = this.opts.failingTools?.[name];
    if (failure) throw new Error(failure);
    const ret = this.execute(name, args);
    return typeof ret === 'string' ? ret : typeof ret === 'object' ? JSON.stringify(ret) : String(ret);
  }

  private execute(name: string, args: Record<string, boolean | number | string>): ReturnValue {
    switch (name) {
      case 'self.get_device_status':
        return JSON.stringify({
          audio_speaker: { volume: this.state.volume },
          screen: { brightness: this.state.brightness, theme: this.state.theme },
          battery: { level: 86, charging: false },
          network: { type: 'wifi', ssid: 'HomeWiFi', signal: 'strong' },
        });
      case 'self.audio_speaker.set_volume':
        this.state.volume = args.volume as number;
        return true;
      case 'self.screen.set_brightness':
        this.state.brightness = args.brightness as number;
        return true;
      case 'self.screen.set_theme':
        if (args.theme !== 'light' && args.theme !== 'dark') return false;
        this.state.theme = args.theme;
        return true;
      case 'self.camera.take_photo':
        if (!this.visionUrl) throw new Error('Image explain URL or token is not set');
        return '{"success":true,"action":"RESPONSE","response":"A desk with a laptop."}';
      case 'self.screen.get_info':
        return { width: 240, height: 240, monochrome: false };
      default:
        return true;
    }
  }
}

/** Property::set_value after the type checks in DoToolCall: wrong type counts as absent. */
function bindValue(schema: PropertySchema, v: unknown): boolean | number | string | undefined {
  if (schema.type === 'boolean') return typeof v === 'boolean' ? v : undefined;
  if (schema.type === 'integer') return typeof v === 'number' ? Math.trunc(v) : undefined; // cJSON valueint
  return typeof v === 'string' ? v : undefined;
}

export function isUserOnly(tool: FirmwareTool): boolean {
  return !!tool.annotations?.audience?.includes('user');
}

function result(id: number, resultJson: string): string {
  return `{"jsonrpc":"2.0","id":${id},"result":${resultJson}}`;
}

/** ReplyError: the message is concatenated in without JSON escaping, as the firmware does. */
function error(id: number, message: string): string {
  return `{"jsonrpc":"2.0","id":${id},"error":{"message":"${message}"}}`;
}
