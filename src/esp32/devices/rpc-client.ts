// The JSON-RPC client side of device MCP, shaped by what the firmware really does
// (the firmware's mcp_server.cc and docs/mcp-protocol.md at https://github.com/78/xiaozhi-esp32): ids must be integers (a string id gets no reply at
// all), `params: null` is dropped silently, error objects carry only `message` (no `code`), replies
// arrive out of order, and anything malformed is simply never answered, so every request has its
// own timeout. There is no `ping`; liveness comes from the transport.
import { McpNodeError } from '../../errors';
import { shorten } from '../../text';

export type JsonRpcPayload = {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
};

/** Hands out integer ids below 2^31 (the firmware reads ids with cJSON `valueint`). */
export class IdAllocator {
  private next = 1;
  take(): number {
    const id = this.next;
    this.next = this.next >= 0x7fffffff ? 1 : this.next + 1;
    return id;
  }
}

export interface RequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Words for error messages, e.g. `tools/call "self.reboot"`. */
  what?: string;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
  what: string;
  cleanup(): void;
}

export class DeviceRpcClient {
  private readonly pending = new Map<number, Pending>();
  private closedError: Error | undefined;

  constructor(
    private readonly sendPayload: (payload: Record<string, unknown>) => void,
    private readonly ids: IdAllocator,
    /** Names the device in error messages, e.g. `ESP32 device d8:3b:da:4e:21:7c`. */
    private readonly label: string,
  ) {}

  owns(id: unknown): boolean {
    return typeof id === 'number' && this.pending.has(id);
  }

  request(method: string, params: Record<string, unknown> | undefined, options: RequestOptions): Promise<unknown> {
    if (this.closedError) return Promise.reject(this.closedError);
    const what = options.what ?? method;
    if (options.signal?.aborted) return Promise.reject(abortError(this.label, what));
    const id = this.ids.take();
    // `params` is left out rather than sent as null: the firmware drops `params:null` silently.
    const payload: Record<string, unknown> = { jsonrpc: '2.0', id, method };
    if (params !== undefined) payload.params = params;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.settle(id)?.reject(abortError(this.label, what));
      };
      const timer = setTimeout(() => {
        const seconds = Math.round(options.timeoutMs / 100) / 10;
        this.settle(id)?.reject(
          new McpNodeError(
            `${this.label} did not answer ${what} within ${seconds} s (the firmware silently drops requests it cannot handle)`,
            'timeout',
            'TIMEOUT',
          ),
        );
      }, options.timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, { resolve, reject, timer, what, cleanup });
      options.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        this.sendPayload(payload);
      } catch (err) {
        this.settle(id)?.reject(new McpNodeError(`${this.label}: could not send ${what}: ${(err as Error).message}`, 'send failed', 'SEND_FAILED'));
      }
    });
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (this.closedError) return;
    const payload: Record<string, unknown> = { jsonrpc: '2.0', method };
    if (params !== undefined) payload.params = params;
    this.sendPayload(payload);
  }

  /** Settles the matching request; returns false when the payload answers nothing we asked. */
  handleResponse(payload: JsonRpcPayload): boolean {
    if (typeof payload.id !== 'number' || typeof payload.method === 'string') return false;
    const p = this.settle(payload.id);
    if (!p) return false;
    if (payload.error !== undefined && payload.error !== null) {
      p.reject(deviceError(this.label, p.what, payload.error));
    } else {
      p.resolve(payload.result);
    }
    return true;
  }

  /** Fails every pending request at once (the device went away) and refuses new ones. */
  close(err: Error): void {
    this.closedError = err;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err);
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    p.cleanup();
    return p;
  }
}

/** A JSON-RPC error from the device; the firmware's message is what the user needs to read. */
function deviceError(label: string, what: string, error: unknown): McpNodeError {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as { message?: unknown; code?: unknown };
  const message = typeof e.message === 'string' && e.message ? e.message : JSON.stringify(error);
  return new McpNodeError(`${label} rejected ${what}: ${message}`, shorten(message, 40), 'DEVICE_ERROR', {
    deviceMessage: message,
    ...(typeof e.code === 'number' ? { rpcCode: e.code } : {}),
  });
}

function abortError(label: string, what: string): McpNodeError {
  return new McpNodeError(`${what} to ${label} was cancelled`, 'cancelled', 'CANCELLED');
}
