// `research`: a tool that takes a few seconds and, on MCP 2026-07-28, runs as a task (the
// `io.modelcontextprotocol/tasks` extension) for a client that names the extension in its request's
// capabilities: tools/call answers with the task, the client polls `tasks/get` (a status message per
// step, the result inline once it is done) and may `tasks/cancel`. The server SDK has no runtime for
// this extension, so the few methods are written here from the extension's specification. To any
// other client (the 2025 revisions, or one without the extension) it is an ordinary call that sends
// progress notifications.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';

const TASKS = 'io.modelcontextprotocol/tasks';
const STEPS = 3;
const POLL_INTERVAL_MS = 250;
const KEEP_ENDED = 20; // the ended tasks kept for a late tasks/get; older ones are forgotten

interface ResearchTask {
  taskId: string;
  status: 'working' | 'completed' | 'cancelled';
  step: number;
  topic: string;
  createdAt: string;
  lastUpdatedAt: string;
  timer?: NodeJS.Timeout;
}

export const tasksCapability = { extensions: { [TASKS]: {} } };

function summary(topic: string): CallToolResult {
  const text = `Research on "${topic}": ${STEPS} sources read. The demo server has no internet; a real server would answer here.`;
  return { content: [{ type: 'text', text }], structuredContent: { topic, sources: STEPS } };
}

function declaresTasks(ctx: ServerContext): boolean {
  const caps = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as { extensions?: Record<string, unknown> } | undefined;
  return Boolean(caps?.extensions?.[TASKS]);
}

export function researchTasks(stepMs: number) {
  const tasks = new Map<string, ResearchTask>();
  const forgetOld = () => {
    const ended = [...tasks.values()].filter((t) => t.status !== 'working');
    for (const t of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED))) tasks.delete(t.taskId);
  };
  const state = (t: ResearchTask) => ({
    taskId: t.taskId,
    status: t.status,
    ...(t.status === 'working' ? { statusMessage: `reading source ${Math.min(t.step + 1, STEPS)} of ${STEPS}` } : {}),
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttlMs: 600_000,
    pollIntervalMs: POLL_INTERVAL_MS,
    ...(t.status === 'completed' ? { result: summary(t.topic) } : {}),
  });
  const find = (taskId: unknown) => {
    const t = typeof taskId === 'string' ? tasks.get(taskId) : undefined;
    if (!t) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task ${String(taskId)}`);
    return t;
  };

  return {
    /** tools/call of `research`: a task for a client that takes one, else the whole run with progress. */
    async call(args: Record<string, unknown>, ctx: ServerContext, progress: (step: number, total: number) => Promise<void>): Promise<CallToolResult> {
      const topic = String(args.topic ?? 'home automation');
      if (!declaresTasks(ctx)) {
        for (let step = 1; step <= STEPS; step++) {
          await new Promise((r) => setTimeout(r, stepMs));
          await progress(step, STEPS);
        }
        return summary(topic);
      }
      forgetOld();
      const now = new Date().toISOString();
      const t: ResearchTask = { taskId: randomUUID(), status: 'working', step: 0, topic, createdAt: now, lastUpdatedAt: now };
      tasks.set(t.taskId, t);
      const next = () => {
        t.step++;
        t.lastUpdatedAt = new Date().toISOString();
        if (t.step >= STEPS) t.status = 'completed';
        else t.timer = setTimeout(next, stepMs);
      };
      t.timer = setTimeout(next, stepMs);
      return { resultType: 'task', ...state(t) } as unknown as CallToolResult;
    },
    /** tasks/get and tasks/cancel on this server. */
    register(server: Server): void {
      const taskIdOnly = { '~standard': { version: 1 as const, vendor: 'demo', validate: (value: unknown) => ({ value: value as { taskId: string } }) } };
      const handle = server.setRequestHandler.bind(server) as unknown as (m: string, s: unknown, h: (p: { taskId: string }) => unknown) => void;
      handle('tasks/get', { params: taskIdOnly }, (params) => state(find(params.taskId)));
      handle('tasks/cancel', { params: taskIdOnly }, (params) => {
        const t = find(params.taskId);
        if (t.status === 'working') {
          clearTimeout(t.timer);
          Object.assign(t, { status: 'cancelled', lastUpdatedAt: new Date().toISOString() });
        }
        return {};
      });
    },
    close(): void {
      for (const t of tasks.values()) clearTimeout(t.timer);
    },
  };
}
