// tools/call on one SDK Server: the call's context (who asks, progress, how to reach the person for
// input), and on 2026-07-28 the retry that brings the person's answer back to a waiting call. The
// call's handle travels to the client sealed (HMAC with a key of this endpoint, bound to the bearer
// token), so a retry can only resume a call this endpoint handed out to the same token.
import { randomBytes } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, createRequestStateCodec, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { callerOf } from './caller';
import { answerInResponses, type ClientInput } from './asking-the-client';
import type { PendingCalls } from './pending-calls';
import type { FlowTasks } from './flow-tasks';
import { errorResult, type ToolAnswer, type ToolCall } from './types';

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

/** Long-running flow tools on a 2025 session: who keeps the tasks, and each tool's task limit. */
export interface TaskServing {
  tasks: FlowTasks;
  limitOf(name: string): number | undefined;
}

export function serveToolCalls(
  server: Server,
  era: 'legacy' | 'modern',
  callTool: CallOf,
  pending: PendingCalls,
  codec: CallHandleCodec,
  asTask?: TaskServing,
): void {
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const params = request.params;
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const call = callContext(server, ctx, params._meta?.progressToken, era, codec);
    const limitMs = asTask && (params as { task?: unknown }).task !== undefined ? asTask.limitOf(params.name) : undefined;
    if (asTask && limitMs !== undefined) {
      // Answered at once with the task; the flow's answer becomes its result. The call's own
      // request has ended by then, so progress goes into the task's status and no input can be asked.
      return asTask.tasks.start(limitMs, (taskId, signal, progress) =>
        callTool(params.name, args, { ...call, signal, input: undefined, taskId, progress: async (u) => progress(u) }),
      ) as never;
    }
    try {
      const resumed = era === 'modern' ? ctx.mcpReq.requestState<{ handle?: string }>() : undefined;
      if (resumed?.handle) {
        const answered = pending.resume(resumed.handle, { ...call, tool: params.name, arguments: args }, answerInResponses(ctx.mcpReq.inputResponses));
        return (
          (await answered) ??
          errorResult(`The call of ${params.name} is no longer waiting for this answer (it timed out or was answered): call the tool again.`)
        );
      }
      return await callTool(params.name, args, call);
    } catch (err) {
      if (err instanceof ProtocolError) throw err;
      return errorResult(err instanceof Error ? err.message : String(err));
    }
  });
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
  return { kind: 'during-call', ask: (params) => ctx.mcpReq.elicitInput(params as never) };
}
