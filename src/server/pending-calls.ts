// Requests waiting for a flow to answer (an `*-in` node sent a message, the matching `*-out` node
// will answer it), keyed by a random handle that travels in msg._mcp. Each request settles exactly
// once: by the answer, by its timeout, or by the client cancelling; later answers are ignored.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { errorResult, type CallToolResult, type ProgressUpdate, type ToolCall } from './types';

/** What every waiting request carries: what it is called in messages, and the client's cancel signal. */
export interface WaitingRequest {
  /** "the call of get_weather", "the prompt greet", "the read of notes://today". */
  what: string;
  signal: AbortSignal;
}

interface Pending<R, C> {
  settle(outcome: R | Error): void;
  request: C;
  timer: NodeJS.Timeout;
}

/**
 * `failure` turns a timeout or cancel into what the waiting side gets: an error result for a tool
 * call (the model reads it), a JSON-RPC error for a prompt or a read (there is no error result).
 */
export class PendingRequests<R, C extends WaitingRequest = WaitingRequest> {
  private readonly waiting = new Map<string, Pending<R, C>>();

  constructor(
    private readonly failure: (text: string) => R | Error,
    private readonly wiring: string,
  ) {}

  /** Starts waiting; `deliver` hands the handle to the flow. Resolves with the flow's answer. */
  wait(request: C, timeoutMs: number, deliver: (handle: string) => void): Promise<R> {
    const handle = randomUUID();
    return new Promise<R>((resolve, reject) => {
      const settle = (outcome: R | Error) => {
        const pending = this.waiting.get(handle);
        if (!pending) return;
        clearTimeout(pending.timer);
        this.waiting.delete(handle);
        request.signal.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const onAbort = () => settle(this.failure(`${capitalised(request.what)} was cancelled by the client.`));
      const timer = setTimeout(
        () => settle(this.failure(`No flow answered ${request.what} within ${timeoutMs / 1000} s: ${this.wiring}, or raise the node's timeout.`)),
        timeoutMs,
      );
      this.waiting.set(handle, { settle, request, timer });
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      deliver(handle);
    });
  }

  /** False when the request is no longer waiting (answered, timed out, cancelled, or never existed). */
  answer(handle: string, outcome: R | Error): boolean {
    const pending = this.waiting.get(handle);
    if (!pending) return false;
    pending.settle(outcome);
    return true;
  }

  protected requestOf(handle: string): C | undefined {
    return this.waiting.get(handle)?.request;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Redeploy or close: every waiting request fails at once rather than at its timeout. */
  closeAll(reason: string): void {
    for (const pending of [...this.waiting.values()]) pending.settle(this.failure(reason));
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

type WaitingCall = ToolCall & WaitingRequest;

/** Tool calls: a timeout or cancel is an error result, and a flow may report progress meanwhile. */
export class PendingCalls extends PendingRequests<CallToolResult, WaitingCall> {
  constructor() {
    super(errorResult, 'wire its mcp-tool-in to an mcp-tool-out (keep msg._mcp)');
  }

  override wait(call: ToolCall, timeoutMs: number, deliver: (handle: string) => void): Promise<CallToolResult> {
    return super.wait({ ...call, what: `the call of ${call.tool}` }, timeoutMs, deliver);
  }

  async progress(handle: string, update: ProgressUpdate): Promise<boolean> {
    const call = this.requestOf(handle);
    if (!call) return false;
    await call.progress(update);
    return true;
  }
}

/** A prompt or a read that timed out or was cancelled: the client gets a JSON-RPC error. */
export const requestFailure = (text: string) => new ProtocolError(ProtocolErrorCode.InternalError, text);
