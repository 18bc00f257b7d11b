// Input requests: a server asking the person behind the client for input in the middle of a call
// (MCP elicitation). Protocol revisions before 2026-07-28 send `elicitation/create` to the client
// while the call runs; 2026-07-28 answers the call with `resultType: "input_required"`, and the SDK
// client fulfils those embedded requests through the same `elicitation/create` handler and retries
// the call with the answers. Either way the session's handler lands here, and the answer comes
// from whoever made the call (a node turns it into a message and waits for the flow's reply).
//
// Which call asked: over HTTP the server's request travels on the call's own response, so the call's
// async context is still current (AsyncLocalStorage); over stdio it arrives on the shared pipe, and
// it goes to the one call that can answer, when there is exactly one.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { schemaProblems } from './argument-validator';

/** What a flow sees of a server's request for input. */
export interface InputRequest {
  /** Names this request in the answer (`msg.input.id`). */
  id: string;
  /** What the server asks, in its words. */
  message: string;
  /** form: fill `schema` (a flat JSON Schema object); url: open `url`, then accept or decline. */
  mode: 'form' | 'url';
  schema?: Record<string, unknown>;
  url?: string;
}

export type InputAction = 'accept' | 'decline' | 'cancel';

/** A filled form: elicitation schemas are flat, so every value is a primitive or a list of strings. */
export type InputContent = Record<string, string | number | boolean | string[]>;

export interface InputAnswer {
  action: InputAction;
  /** The filled form (accept in form mode), checked against the request's schema. */
  content?: InputContent;
}

/** Asks the caller's side for an answer; resolves when it has one (or declines on its own timeout). */
export type InputAsker = (request: InputRequest) => Promise<InputAnswer>;

/** `elicitation/create` params as they arrive (both modes), read without trusting them. */
export interface ElicitParams {
  mode?: unknown;
  message?: unknown;
  requestedSchema?: unknown;
  url?: unknown;
}

export const INPUT_ACTIONS: readonly InputAction[] = ['accept', 'decline', 'cancel'];

/** The request a flow sees, from the server's params. */
export function inputRequestOf(params: ElicitParams): InputRequest {
  const url = params.mode === 'url' && typeof params.url === 'string' ? params.url : undefined;
  const schema = params.requestedSchema && typeof params.requestedSchema === 'object' ? (params.requestedSchema as Record<string, unknown>) : undefined;
  return {
    id: randomUUID(),
    message: typeof params.message === 'string' ? params.message : '',
    mode: url ? 'url' : 'form',
    ...(url ? { url } : { schema: schema ?? { type: 'object', properties: {} } }),
  };
}

/**
 * An answer as a flow gives it (`{action, content}`), checked: a known action, and for an accepted
 * form, content that is an object matching the requested schema. Returns the problem in words, or
 * the answer to send.
 */
export function checkInputAnswer(request: InputRequest, given: { action?: unknown; content?: unknown }): { problem: string } | { answer: InputAnswer } {
  const action = given.action;
  if (typeof action !== 'string' || !INPUT_ACTIONS.includes(action as InputAction)) {
    return { problem: `action must be one of ${INPUT_ACTIONS.join(', ')} (got ${JSON.stringify(action)})` };
  }
  if (action !== 'accept' || request.mode === 'url') return { answer: { action: action as InputAction } };
  const content = given.content ?? {};
  if (!content || typeof content !== 'object' || Array.isArray(content)) return { problem: 'content must be an object of the requested fields' };
  const problem = schemaProblems(request.schema, content);
  if (problem) return { problem: `content does not match the requested schema: ${problem}` };
  return { answer: { action: 'accept', content: content as InputContent } };
}

/** Routes a session's input requests to the call that caused them. */
export class InputRouter {
  private readonly current = new AsyncLocalStorage<InputAsker>();
  private readonly askers = new Set<InputAsker>();

  /** Runs one call with `asker` answering the input requests it causes. */
  async run<T>(asker: InputAsker | undefined, call: () => Promise<T>): Promise<T> {
    if (!asker) return call();
    this.askers.add(asker);
    try {
      return await this.current.run(asker, call);
    } finally {
      this.askers.delete(asker);
    }
  }

  /** True while some call can answer an input request (the client then offers elicitation). */
  get active(): boolean {
    return this.askers.size > 0;
  }

  /** The session's `elicitation/create` handler: a request nobody can answer is declined. */
  async answer(params: ElicitParams): Promise<InputAnswer> {
    const asker = this.current.getStore() ?? (this.askers.size === 1 ? [...this.askers][0] : undefined);
    if (!asker) return { action: 'decline' };
    return asker(inputRequestOf(params));
  }
}

/** The message a flow gets for an input request (the node adds who asked). */
export interface InputRequestMessage {
  topic: 'input';
  payload: { message: string; mode: 'form' | 'url'; schema?: Record<string, unknown>; url?: string };
  input: { id: string };
}

/**
 * The input requests a node is waiting on, each answered by the flow (`reply`), declined when no
 * answer comes within `timeoutMs`, or cancelled with the call. Nothing stays pending after that.
 */
export class InputWaits {
  private readonly waiting = new Map<string, { request: InputRequest; settle(answer: InputAnswer): void }>();

  constructor(readonly timeoutMs: number) {}

  get size(): number {
    return this.waiting.size;
  }

  ask(request: InputRequest, signal: AbortSignal | undefined, emit: (m: InputRequestMessage) => void): Promise<InputAnswer> {
    return new Promise((resolve) => {
      const settle = (answer: InputAnswer) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(request.id);
        resolve(answer);
      };
      const timer = setTimeout(() => settle({ action: 'decline' }), this.timeoutMs);
      const onAbort = () => settle({ action: 'cancel' });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.id, { request, settle });
      const { id, message, mode, schema, url } = request;
      emit({ topic: 'input', payload: { message, mode, ...(schema ? { schema } : {}), ...(url ? { url } : {}) }, input: { id } });
    });
  }

  /**
   * A flow's answer (`msg.input`): sent when it names a waiting request and passes the checks;
   * otherwise the problem, and a request it named keeps waiting for a better answer.
   */
  reply(given: { id?: unknown; action?: unknown; content?: unknown }): { problem?: string } {
    const entry = typeof given.id === 'string' ? this.waiting.get(given.id) : undefined;
    if (!entry) {
      return {
        problem: `no call waits for input ${JSON.stringify(given.id)}: it was answered already, waited longer than ${this.timeoutMs / 1000} s, or the node was redeployed since`,
      };
    }
    const checked = checkInputAnswer(entry.request, given);
    if ('problem' in checked) return { problem: checked.problem };
    entry.settle(checked.answer);
    return {};
  }

  /** Cancels every request still waiting (the node is closing). */
  cancelAll(): void {
    for (const { settle } of [...this.waiting.values()]) settle({ action: 'cancel' });
  }
}
