// Puts the lenient readers between the wire and the SDK client. The SDK validates every list and
// tools/call result against its schema before returning it, and in the 2026-07-28 era it does so
// inside its wire codec, before any schema a caller could pass to `client.request()`. So the one
// place that sees every era's raw answer is the transport: a handler set on `transport.onmessage`
// before `connect()` is chained by the SDK and runs first on the same message object (Protocol.connect),
// which lets us repair the result in place. The SDK has no hook for outgoing messages, so `send` is
// wrapped to learn which request id asked for what.
//
// Who gets the warnings: the caller runs its request inside `captureLeniency()`; the request is
// sent in the caller's async context, so the wrapped `send` files the id under that capture.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { JSONRPCMessage, Transport } from './sdk';
import { readListLeniently, type ListKind, type ListWarning } from './lenient-list';
import { readCallResultLeniently } from './lenient-result';

export interface LenientCapture {
  warnings: ListWarning[];
  /** The raw result of a tools/call that needed repair. */
  raw?: unknown;
  /** A 2026-07-28 tools/call the server answered with a task (the tasks extension), as it came. */
  task?: Record<string, unknown>;
}

export interface LenientWireOptions {
  /** True once a 2026-07-28 session is negotiated (structuredContent may then be any JSON value). */
  modernEra: () => boolean;
  /** Warnings of requests nobody captured (none today; kept so nothing is repaired silently). */
  onUncaptured: (warnings: ListWarning[]) => void;
}

const LIST_METHODS: Record<string, ListKind> = { 'tools/list': 'tools', 'prompts/list': 'prompts', 'resources/list': 'resources' };
/** A request whose answer never comes (timed out, stream aborted) must not hold its entry forever. */
const MAX_PENDING = 10_000;
const captures = new AsyncLocalStorage<LenientCapture>();

interface Pending {
  method: string;
  tool?: string;
  capture?: LenientCapture;
}

/** Runs `op` and returns what the lenient readers repaired or left out in the answers it got. */
export async function captureLeniency<T>(op: () => Promise<T>): Promise<{ value: T; capture: LenientCapture }> {
  const capture: LenientCapture = { warnings: [] };
  const value = await captures.run(capture, op);
  return { value, capture };
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
  pending.set(m.id, { method: m.method, tool, capture: captures.getStore() });
}

function repairResponse(pending: Map<string | number, Pending>, message: JSONRPCMessage, options: LenientWireOptions): void {
  const m = message as { id?: string | number; result?: unknown; method?: string };
  if (m.method !== undefined || m.id === undefined) return;
  const request = pending.get(m.id);
  if (!request) return;
  pending.delete(m.id);
  if (!('result' in m)) return; // an error answer: the SDK reports it as it is
  if (takeTask(m as { result: unknown }, request)) return;
  let warnings: ListWarning[];
  try {
    warnings = repairInPlace(m as { result: unknown }, request, options);
  } catch {
    return; // unreadable even leniently: left as it came, the SDK's error names what is wrong with it
  }
  if (!warnings.length) return;
  if (request.capture) request.capture.warnings.push(...warnings);
  else options.onUncaptured(warnings);
}

/**
 * The SDK's 2026 codec knows no `resultType: "task"` and would fail the call; the task goes to the
 * caller's capture instead (task-call-extension.ts follows it) and the SDK gets an empty result.
 */
function takeTask(m: { result: unknown }, request: Pending): boolean {
  const raw = m.result as Record<string, unknown> | null;
  if (request.method !== 'tools/call' || !request.capture || raw?.resultType !== 'task') return false;
  const { resultType: _envelope, ...task } = raw;
  request.capture.task = task;
  m.result = { resultType: 'complete', content: [] };
  return true;
}

/** The task a tools/call of the current capture was answered with, once. */
export function takeCreatedTask(): Record<string, unknown> | undefined {
  const capture = captures.getStore();
  const task = capture?.task;
  if (capture) delete capture.task;
  return task;
}

function repairInPlace(m: { result: unknown }, request: Pending, options: LenientWireOptions): ListWarning[] {
  const raw = m.result as Record<string, unknown>;
  const kind = LIST_METHODS[request.method];
  if (kind) {
    const page = readListLeniently(kind, raw);
    if (!page.warnings.length) return [];
    const { [kind]: _items, nextCursor: _cursor, ...rest } = raw;
    m.result = { ...rest, [kind]: page.items, ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
    return page.warnings;
  }
  const { result, warnings } = readCallResultLeniently(request.tool ?? '', raw, { structuredAnyJson: options.modernEra() });
  if (!warnings.length) return [];
  // Keep the era's envelope fields (resultType) the SDK's codec reads before validation.
  if (raw && typeof raw === 'object' && 'resultType' in raw) (result as Record<string, unknown>).resultType = raw.resultType;
  m.result = result;
  if (request.capture) {
    // resultType is the 2026 era's envelope, which the SDK strips from every result too.
    const { resultType: _envelope, ...answer } = raw ?? {};
    request.capture.raw = raw && typeof raw === 'object' && !Array.isArray(raw) ? answer : raw;
  }
  return warnings;
}
