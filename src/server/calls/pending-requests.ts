// Requests waiting for a flow to answer (an `*-in` node sent a message, the matching `*-out` node
// will answer it), keyed by a random handle that travels in msg._mcp. Each request settles exactly
// once: by the answer, by its timeout, or by the client cancelling; later answers are ignored.
//
// A tool call on 2026-07-28 can also be detached: its HTTP request is answered (input_required)
// while the call itself waits for the client to retry with the person's answer, and reattached to
// that retry. An answer the flow gives in between is held for the retry; the timer keeps running, so
// a client that never comes back does not leave the call behind.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** What every waiting request carries: what it is called in messages, and the client's cancel signal. */
export interface WaitingRequest {
  /** "the call of get_weather", "the prompt greet", "the read of notes://today". */
  what: string;
  signal: AbortSignal;
}

interface Pending<R, C> {
  request: C;
  timer: NodeJS.Timeout;
  timeoutMs: number;
  /** Settles the client request attached now; undefined while detached. */
  settle?: (outcome: R | Error) => void;
  /** An answer that came while detached, for the retry. */
  held?: R | Error;
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
    const entry: Pending<R, C> = { request, timeoutMs, timer: this.timer(handle, timeoutMs) };
    this.waiting.set(handle, entry);
    const answered = this.attach(handle, entry, request);
    if (this.waiting.has(handle)) deliver(handle);
    return answered;
  }

  /** False when the request is no longer waiting (answered, timed out, cancelled, or never existed). */
  answer(handle: string, outcome: R | Error): boolean {
    const entry = this.waiting.get(handle);
    if (!entry) return false;
    if (!entry.settle) {
      entry.held = outcome;
      return true;
    }
    this.end(handle, outcome);
    return true;
  }

  get size(): number {
    return this.waiting.size;
  }

  /** Redeploy or close: every waiting request fails at once rather than at its timeout. */
  closeAll(reason: string): void {
    for (const handle of [...this.waiting.keys()]) this.end(handle, this.failure(reason));
  }

  protected requestOf(handle: string): C | undefined {
    return this.waiting.get(handle)?.request;
  }

  /** Answers the attached client request with `outcome` and keeps the request waiting for a retry, for `holdMs`. */
  protected detach(handle: string, outcome: R, holdMs: number, expired?: string): boolean {
    const entry = this.waiting.get(handle);
    if (!entry?.settle) return false;
    entry.settle(outcome);
    entry.settle = undefined;
    this.restartTimer(handle, entry, holdMs, expired);
    return true;
  }

  /** The client's retry takes over a detached request; undefined when there is none under `handle`. */
  protected reattach(handle: string, request: C): Promise<R> | undefined {
    const entry = this.waiting.get(handle);
    if (!entry || entry.settle) return undefined;
    this.restartTimer(handle, entry, entry.timeoutMs);
    const answered = this.attach(handle, entry, request);
    if (entry.held !== undefined) this.end(handle, entry.held);
    return answered;
  }

  /** Gives the request `ms` from now (a person answering input does not eat the flow's time). */
  protected restartTimer(handle: string, entry = this.waiting.get(handle), ms = entry?.timeoutMs ?? 0, expired?: string): void {
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.timer = this.timer(handle, ms, expired);
  }

  /** At `ms`, the request ends with `expired` (else: no flow answered in time). */
  private timer(handle: string, ms: number, expired?: string): NodeJS.Timeout {
    return setTimeout(() => {
      const what = this.waiting.get(handle)?.request.what ?? 'the request';
      this.end(handle, this.failure(expired ?? `No flow answered ${what} within ${ms / 1000} s: ${this.wiring}, or raise the node's timeout.`));
    }, ms);
  }

  private attach(handle: string, entry: Pending<R, C>, request: C): Promise<R> {
    entry.request = request;
    return new Promise<R>((resolve, reject) => {
      const onAbort = () => this.end(handle, this.failure(`${capitalised(request.what)} was cancelled by the client.`));
      entry.settle = (outcome) => {
        request.signal.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      if (request.signal.aborted) return onAbort();
      request.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The request is over: whoever is attached hears `outcome`, and the handle is forgotten. */
  private end(handle: string, outcome: R | Error): void {
    const entry = this.waiting.get(handle);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.waiting.delete(handle);
    entry.settle?.(outcome);
  }
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A prompt or a read that timed out or was cancelled: the client gets a JSON-RPC error. */
export const requestFailure = (text: string) => new ProtocolError(ProtocolErrorCode.InternalError, text);
