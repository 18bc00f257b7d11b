// A flow answering a tool call can ask the client for input first (mcp-tool-out with msg.input):
// the person behind the client fills a form or opens a URL, and the answer comes back into the flow
// as a new message from the call's mcp-tool-in. How it travels depends on the revision: 2025
// sessions send `elicitation/create` while the call runs; 2026-07-28 answers the call's request with
// `input_required` and the client retries the call with the answer (pending-calls.ts keeps the call
// waiting in between).
import { randomUUID } from 'node:crypto';
import {
  fromJsonSchema,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

/** What `elicitation/create` carries: a form, or a URL to open. */
export type ElicitParams = ElicitRequestFormParams | ElicitRequestURLParams;
/** A flat form: the only kind a client renders (checked by flowInputRequest). */
export type FlowForm = Extract<ElicitRequestFormParams['requestedSchema'], { type: 'object' }>;

/** What a flow asks: a message, and a flat JSON Schema form or a URL to open. */
export interface FlowInputRequest {
  message: string;
  schema?: FlowForm;
  url?: string;
}

/** The client's answer, as the flow gets it in msg.input. */
export interface ClientAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}

/** How this call's client is reached for input: during the call (2025), or by its retry (2026-07-28). */
export type ClientInput =
  | { kind: 'during-call'; ask(params: ElicitParams): Promise<{ action: string; content?: Record<string, unknown> }> }
  | { kind: 'retry'; seal(handle: string): Promise<string> }
  // A call that may become a task (2026-07-28 tasks extension): which way it goes is known only when the flow asks.
  | { kind: 'deferred'; current(): Exclude<ClientInput, { kind: 'deferred' }> | undefined };

/** The key of our one embedded request in `inputRequests` / `inputResponses`. */
const KEY = 'input';

/** msg.input from the flow, checked: throws with what to fix. */
export function flowInputRequest(input: unknown): FlowInputRequest {
  const given = input as { message?: unknown; schema?: unknown; url?: unknown } | null;
  if (!given || typeof given !== 'object' || typeof given.message !== 'string' || !given.message.trim()) {
    throw new Error('msg.input needs a message (what to ask the person), and a schema (a form) or a url (a page to open)');
  }
  if (given.url !== undefined) {
    if (typeof given.url !== 'string' || !/^https?:\/\//.test(given.url)) throw new Error('msg.input.url must be an http(s) URL');
    return { message: given.message, url: given.url };
  }
  const schema = (given.schema ?? { type: 'object', properties: {} }) as FlowInputRequest['schema'];
  if (!schema || typeof schema !== 'object' || schema.type !== 'object' || typeof schema.properties !== 'object' || schema.properties === null) {
    throw new Error('msg.input.schema must be a JSON Schema object with "type": "object" and flat "properties"');
  }
  const nested = Object.entries(schema.properties).filter(
    ([, p]) => !p || typeof p !== 'object' || (['object', 'array'].includes((p as { type?: string }).type ?? '') && !isStringList(p)),
  );
  if (nested.length)
    throw new Error(`msg.input.schema: ${nested.map(([k]) => k).join(', ')} must be a string, number, integer, boolean or list of strings (forms are flat)`);
  return { message: given.message, schema };
}

const isStringList = (p: unknown) =>
  (p as { type?: string; items?: { type?: string } }).type === 'array' && (p as { items?: { type?: string } }).items?.type === 'string';

/** `elicitation/create` params for a 2025 session. */
export function elicitParams(request: FlowInputRequest): ElicitParams {
  return request.url
    ? { mode: 'url', message: request.message, url: request.url, elicitationId: randomUUID() }
    : { message: request.message, requestedSchema: request.schema ?? { type: 'object', properties: {} } };
}

/** The 2026-07-28 answer that asks, with the sealed call handle the client sends back. */
export function inputRequiredResult(request: FlowInputRequest, requestState: string): InputRequiredResult {
  const ask = request.url
    ? inputRequired.elicitUrl({ message: request.message, url: request.url })
    : inputRequired.elicit({ message: request.message, requestedSchema: request.schema ?? { type: 'object', properties: {} } });
  return inputRequired({ inputRequests: { [KEY]: ask }, requestState });
}

/** The client's answer from an elicitation result or a retry's inputResponses; never trusted further than its shape. */
export function clientAnswer(result: unknown): ClientAnswer {
  const r = (result ?? {}) as { action?: unknown; content?: unknown };
  const action = r.action === 'accept' || r.action === 'decline' || r.action === 'cancel' ? r.action : 'cancel';
  const content = action === 'accept' && r.content && typeof r.content === 'object' ? (r.content as Record<string, unknown>) : undefined;
  return { action, ...(content ? { content } : {}) };
}

export function answerInResponses(responses: Record<string, unknown> | undefined): ClientAnswer {
  return clientAnswer(responses?.[KEY]);
}

/**
 * An accepted answer checked against the form that was asked, with the SDK's own validator, before
 * the flow sees it: on 2025 the SDK does this in elicitInput; a 2026-07-28 answer arrives in a retry
 * or a tasks/update, and is checked here the same way. Throws the SDK's InvalidParams error.
 */
export function checkedAnswer(answer: ClientAnswer, requestedSchema: unknown): ClientAnswer {
  if (answer.action !== 'accept' || !requestedSchema || typeof requestedSchema !== 'object') return answer;
  const checked = fromJsonSchema(requestedSchema as Parameters<typeof fromJsonSchema>[0])['~standard'].validate(answer.content ?? {});
  if (checked instanceof Promise) throw new TypeError('the form schema validates asynchronously');
  if (!checked.issues) return answer;
  const problems = checked.issues.map((i) => {
    const at = (i.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.');
    return at ? `${at}: ${i.message}` : i.message;
  });
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Elicitation response content does not match requested schema: ${problems.join('; ')}`);
}
