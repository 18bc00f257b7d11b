// Puts the lenient readers between the wire and the SDK client. The SDK validates every list and
// tools/call result against its schema before returning it, and in the 2026-07-28 era it does so
// inside its wire codec, before any schema a caller could pass to `client.request()`. So the one
// place that sees every era's raw answer is the transport: a handler set on `transport.onmessage`
// before `connect()` is chained by the SDK and runs first on the same message object (Protocol.connect),
// which lets us repair the result in place. The SDK has no hook for outgoing messages, so `send` is
// wrapped to learn which request id asked for what.
//
// What the readers found travels with the answer itself: the repaired result carries it under
// one private `_meta` key (which every result schema of the SDK keeps), and whoever reads the
// result takes it off with `takeWireFindings`. A server cannot forge it: the key is removed from
// every answer before anything is written there.
import type { JSONRPCMessage, Transport } from '../protocol/sdk';
import { readListLeniently, type ListKind, type ListWarning } from './lenient-list';
import { readCallResultLeniently } from './lenient-result';

export interface WireFindings {
  warnings: ListWarning[];
  /** The raw result of a tools/call that needed repair. */
  raw?: unknown;
  /** A 2026-07-28 tools/call the server answered with a task (the tasks extension), as it came. */
  task?: Record<string, unknown>;
}

/** The `_meta` key the findings travel under, between this file and `takeWireFindings`. */
const FINDINGS_KEY = 'node-red-contrib-mcp-gemini/wire-findings';

export interface LenientWireOptions {
  /** True once a 2026-07-28 session is negotiated (structuredContent may then be any JSON value). */
  modernEra: () => boolean;
}

const LIST_METHODS: Record<string, ListKind> = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources' };
/** A request whose answer never comes (timed out, stream aborted) must not hold its entry forever. */
const MAX_PENDING = 10_000;

interface Pending {
  method: string;
  tool?: string;
}

/**
 * What the lenient readers repaired, left out or took off an answer, removed from it: the result
 * is then as the server meant it (no `_meta` left behind that the server did not send).
 */
export function takeWireFindings(result: unknown): WireFindings {
  const meta = (result as { _meta?: Record<string, unknown> } | null)?._meta;
  const found = meta?.[FINDINGS_KEY] as WireFindings | undefined;
  if (!meta || !found) return { warnings: [] };
  delete meta[FINDINGS_KEY];
  if (!Object.keys(meta).length) delete (result as { _meta?: unknown })._meta;
  return found;
}

/** Call before `client.connect(transport)`. */
export function readResponsesLeniently(transport: Transport, options: LenientWireOptions): void {
  const pending = new Map<string | number, Pending>();
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) => {
    track(pending, message);
    return send(message, sendOptions);
  };
  const chained = transport.onmessage;
  transport.onmessage = (message, extra) => {
    repairResponse(pending, message, options);
    chained?.(message, extra);
  };
}

function track(pending: Map<string | number, Pending>, message: JSONRPCMessage): void {
  const m = message as { id?: string | number; method?: string; params?: { name?: unknown; requestId?: string | number } };
  if (m.method === 'notifications/cancelled' && m.params?.requestId !== undefined) {
    pending.delete(m.params.requestId);
    return;
  }
  if (m.id === undefined || !m.method || !(m.method in LIST_METHODS || m.method === 'tools/call')) return;
  if (pending.size >= MAX_PENDING) pending.delete(pending.keys().next().value!);
  const tool = typeof m.params?.name === 'string' ? m.params.name : undefined;
  pending.set(m.id, { method: m.method, tool });
}

function repairResponse(pending: Map<string | number, Pending>, message: JSONRPCMessage, options: LenientWireOptions): void {
  const m = message as { id?: string | number; result?: unknown; method?: string };
  if (m.method !== undefined || m.id === undefined) return;
  const request = pending.get(m.id);
  if (!request) return;
  pending.delete(m.id);
  if (!('result' in m)) return; // an error answer: the SDK reports it as it is
  forgetForgedFindings(m.result);
  const task = takenTask(m as { result: unknown }, request);
  if (task) return attach(m.result, { warnings: [], task });
  let found: Omit<WireFindings, 'task'>;
  try {
    found = repairInPlace(m as { result: unknown }, request, options);
  } catch {
    return; // unreadable even leniently: left as it came, the SDK's error names what is wrong with it
  }
  if (found.warnings.length) attach(m.result, found);
}

function forgetForgedFindings(result: unknown): void {
  const meta = (result as { _meta?: Record<string, unknown> } | null)?._meta;
  if (meta && typeof meta === 'object') delete meta[FINDINGS_KEY];
}

function attach(result: unknown, found: WireFindings): void {
  const r = result as { _meta?: Record<string, unknown> };
  r._meta = { ...(r._meta && typeof r._meta === 'object' ? r._meta : {}), [FINDINGS_KEY]: found };
}

/**
 * The SDK's 2026 codec knows no `resultType: "task"` and would fail the call; the SDK gets an empty
 * result instead, and the task travels with it to the call (tool-call.ts follows it).
 */
function takenTask(m: { result: unknown }, request: Pending): Record<string, unknown> | undefined {
  const raw = m.result as Record<string, unknown> | null;
  if (request.method !== 'tools/call' || raw?.resultType !== 'task') return undefined;
  const { resultType: _envelope, ...task } = raw;
  m.result = { resultType: 'complete', content: [] };
  return task;
}

function repairInPlace(m: { result: unknown }, request: Pending, options: LenientWireOptions): Omit<WireFindings, 'task'> {
  const raw = m.result as Record<string, unknown>;
  const kind = LIST_METHODS[request.method];
  if (kind) {
    const page = readListLeniently(kind, raw);
    if (!page.warnings.length) return { warnings: [] };
    const { [kind]: _items, nextCursor: _cursor, ...rest } = raw;
    m.result = { ...rest, [kind]: page.items, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
    return { warnings: page.warnings };
  }
  const { result, warnings } = readCallResultLeniently(request.tool ?? '', raw, { structuredAnyJson: options.modernEra() });
  if (!warnings.length) return { warnings: [] };
  // Keep the era's envelope fields (resultType) the SDK's codec reads before validation.
  if (raw && typeof raw === 'object' && 'resultType' in raw) (result as Record<string, unknown>).resultType = raw.resultType;
  m.result = result;
  // resultType is the 2026 era's envelope, which the SDK strips from every result too.
  const { resultType: _envelope, ...answer } = raw ?? {};
  return { warnings, raw: raw && typeof raw === 'object' && !Array.isArray(raw) ? answer : raw };
}
