// tools/call on one SDK Server: the call's context (who asks, progress, how to reach the person for
// input), and on 2026-07-28 the retry that brings the person's answer back to a waiting call. The
// call's handle travels to the client sealed (HMAC with a key of this endpoint, bound to the bearer
// token), so a retry can only resume a call this endpoint handed out to the same token.
import { randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  createRequestStateCodec,
  type CallToolRequest,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { callerOf } from './calls/caller';
import { tokenDigest } from './calls/token-digest';
import { answerInResponses, type ClientInput } from './calls/asking-the-client';
import type { PendingCalls } from './calls/pending-calls';
import type { FlowTaskAnswer, FlowTasks } from './tasks/flow-tasks';
import { declaresTasks, type ExtensionTaskAnswer, type ExtensionTasks } from './tasks/flow-tasks-extension';
import { BUILT_IN_HANDLE, errorResult, type ToolAnswer, type ToolCall } from './calls/types';

type CallOf = (name: string, args: Record<string, unknown>, call: Omit<ToolCall, 'tool' | 'arguments'>) => Promise<ToolAnswer>;

/** One per endpoint: the key that seals call handles for 2026-07-28 retries. */
export function callHandleCodec() {
  return createRequestStateCodec<{ handle: string }>({
    key: randomBytes(32),
    ttlSeconds: 600,
    bind: (ctx) => ctx.http?.authInfo?.token ?? '',
  });
}
export type CallHandleCodec = ReturnType<typeof callHandleCodec>;

/**
 * Long-running flow tools, by era: who keeps the tasks (a 2025 session's own FlowTasks, or the
 * endpoint's ExtensionTasks for 2026-07-28), and each tool's task limit.
 */
export type TaskServing = { limitOf(name: string): number | undefined } & ({ era: 'legacy'; tasks: FlowTasks } | { era: 'modern'; tasks: ExtensionTasks });

/**
 * On 2026-07-28 a Long-running call stays an ordinary call this long: a flow that answers or asks
 * the person within it is answered directly; after it the client gets the task.
 */
export const TASK_AFTER_MS = 500;

export function serveToolCalls(
  server: Server,
  era: 'legacy' | 'modern',
  callTool: CallOf,
  pending: PendingCalls,
  codec: CallHandleCodec,
  asTask?: TaskServing,
): void {
  onToolsCall(server, async (request, ctx) => {
    const params = request.params;
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const call = callContext(server, ctx, params._meta?.progressToken, era, codec);
    if (asTask?.era === 'modern' && declaresTasks(ctx)) {
      const limitMs = asTask.limitOf(params.name);
      if (limitMs !== undefined) return callMaybeAsTask(asTask.tasks, limitMs, ctx, params.name, args, call, callTool, pending);
    }
    const legacyLimitMs = asTask?.era === 'legacy' && params.task !== undefined ? asTask.limitOf(params.name) : undefined;
    if (asTask?.era === 'legacy' && legacyLimitMs !== undefined) {
      // Answered at once with the task; the flow's answer becomes its result. The call's own
      // request has ended by then, so progress goes into the task's status and no input can be asked.
      return asTask.tasks.start(legacyLimitMs, (taskId, signal, progress) =>
        callTool(params.name, args, { ...call, signal, input: undefined, taskId, progress: async (u) => progress(u) }),
      );
    }
    try {
      const resumed = era === 'modern' ? ctx.mcpReq.requestState<{ handle?: string }>() : undefined;
      if (resumed?.handle?.startsWith(BUILT_IN_HANDLE))
        return await callTool(params.name, args, { ...call, resumed: { handle: resumed.handle, answer: answerInResponses(ctx.mcpReq.inputResponses) } });
      if (resumed?.handle) return await resumeOrExplain(pending, resumed.handle, { ...call, tool: params.name, arguments: args }, ctx);
      return await callTool(params.name, args, call);
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      return errorResult(err instanceof Error ? err.message : String(err));
    }
  });
}

/**
 * A Long-running tool called by a client with the tasks extension (2026-07-28): the same call, with
 * a task id, a signal the task controls, and the flow's questions and progress going wherever the
 * call is by then (the ordinary request, or the task). A retry that brings the person's answer to
 * an ordinary question may become a task the same way.
 */
async function callMaybeAsTask(
  tasks: ExtensionTasks,
  limitMs: number,
  ctx: ServerContext,
  name: string,
  args: Record<string, unknown>,
  call: Omit<ToolCall, 'tool' | 'arguments'>,
  callTool: CallOf,
  pending: PendingCalls,
): Promise<ToolAnswer | ExtensionTaskAnswer> {
  const taskable = tasks.begin(ctx, limitMs);
  const ordinary = call.input;
  const asCall: Omit<ToolCall, 'tool' | 'arguments'> = {
    ...call,
    taskId: taskable.taskId,
    signal: taskable.signal,
    progress: (u) => taskable.progress(u, call.progress),
    input: {
      kind: 'deferred',
      current: () => {
        const task = taskable.asTask();
        // The task's questions are elicitations too: only for a client that said it can answer them.
        if (task) return ordinary ? { kind: 'during-call', ask: task.ask } : undefined;
        if (ordinary) taskable.keepOrdinary();
        return ordinary as Exclude<typeof ordinary, { kind: 'deferred' }>;
      },
    },
  };
  const resumed = ctx.mcpReq.requestState<{ handle?: string }>();
  const answer = resumed?.handle
    ? resumeOrExplain(pending, resumed.handle, { ...asCall, tool: name, arguments: args }, ctx)
    : callTool(name, args, asCall).catch((err: unknown) => {
        if (err instanceof ProtocolError) throw err;
        return errorResult(err instanceof Error ? err.message : String(err));
      });
  return taskable.settle(answer, TASK_AFTER_MS);
}

function callContext(
  server: Server,
  ctx: ServerContext,
  progressToken: string | number | undefined,
  era: 'legacy' | 'modern',
  codec: CallHandleCodec,
): Omit<ToolCall, 'tool' | 'arguments'> {
  return {
    ...callerOf(server, ctx),
    owner: tokenDigest(ctx.http?.authInfo?.token ?? ''),
    progress: async (update) => {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...update } });
    },
    input: clientInput(server, ctx, era, codec),
  };
}

/** Only for a client that said it can answer (the elicitation capability). */
function clientInput(server: Server, ctx: ServerContext, era: 'legacy' | 'modern', codec: CallHandleCodec): ClientInput | undefined {
  if (era === 'modern') {
    const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as { elicitation?: unknown } | undefined;
    return capabilities?.elicitation ? { kind: 'retry', seal: (handle) => codec.mint({ handle }, ctx) } : undefined;
  }
  if (!server.getClientCapabilities()?.elicitation) return undefined;
  return { kind: 'during-call', ask: (params) => ctx.mcpReq.elicitInput(params) };
}

/**
 * Registers the tools/call handler. The SDK's types know two answers to a call (its result, and
 * 2026-07-28's input_required); a call answered with the task it became (2025-11-25's `task`, the
 * tasks extension's `resultType: "task"`) is not among them yet, so the handler is registered
 * through this one signature that names all three. Remove it when the SDK's CallToolRequest result
 * type includes the tasks extension's CreateTaskResult.
 */
function onToolsCall(
  server: Server,
  handler: (request: CallToolRequest, ctx: ServerContext) => Promise<ToolAnswer | ExtensionTaskAnswer | FlowTaskAnswer>,
): void {
  const register = server.setRequestHandler.bind(server) as unknown as (method: 'tools/call', h: typeof handler) => void;
  register('tools/call', handler);
}

/**
 * A 2026-07-28 retry bringing the person's answer: the waiting call takes it (checked against the
 * form first, which may throw the SDK's InvalidParams), or, when the call has ended meanwhile, an
 * error result that says so.
 */
function resumeOrExplain(pending: PendingCalls, handle: string, call: ToolCall, ctx: ServerContext): Promise<ToolAnswer> {
  return (
    pending.resume(handle, call, answerInResponses(ctx.mcpReq.inputResponses)) ??
    Promise.resolve(errorResult(`The call of ${call.tool} is no longer waiting for this answer (it timed out or was answered): call the tool again.`))
  );
}
