// Flow tools as tasks (MCP 2025-11-25, "tasks"): a tool whose mcp-tool-in is *Long-running* is
// listed with `execution.taskSupport: "optional"`; a client that asks for a task (`task` in the
// tools/call params) gets one at once, and the flow answers whenever it is done, within the tool's
// task limit. The client polls `tasks/get`, fetches `tasks/result` (which waits for the end) and may
// `tasks/cancel`. The flow's progress reports become the task's status message.
//
// Tasks belong to the serving unit that created them (one 2025 session): no other client can see,
// read or cancel them, and they are cancelled when the session ends. The SDK we build on keeps the
// tasks vocabulary of 2025-11-25 but no runtime for it, so the four requests are answered here.
// Running tasks count against the endpoint's task budget (./task-budget.ts); ended ones are kept for
// their results, at most MAX_ENDED per session (the oldest ended is forgotten first).
// 2026-07-28 moved tasks into an extension: flow-tasks-extension.ts serves that revision.
import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { errorResult, isToolResult, type CallToolResult, type ProgressUpdate, type ToolAnswer } from '../calls/types';
import { TaskBudget } from './task-budget';

/** Ended tasks one session keeps for their results. */
export const MAX_ENDED = 100;

type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** What `tasks/get` and `tasks/list` answer, and `tools/call` in its `task` field. */
export interface TaskWire {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
}

interface FlowTask {
  wire: TaskWire;
  controller: AbortController;
  result?: CallToolResult;
  done: Promise<void>;
  expiry: NodeJS.Timeout;
}

/** A call answered with its task at once (a CallToolResult to the SDK, a CreateTaskResult to the client). */
export interface FlowTaskAnswer {
  task: TaskWire;
  content: [];
}

/** The capability a serving unit announces when it can run tools as tasks. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** How often a client is asked to poll. */
const POLL_INTERVAL_MS = 1000;
/** How long an ended task's result stays readable after the task's limit (on top of the run itself). */
const KEPT_AFTER_END_MS = 5 * 60_000;
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export class FlowTasks {
  private readonly tasks = new Map<string, FlowTask>();

  constructor(
    private readonly budget = new TaskBudget(),
    /** Whose share of the budget this session's tasks take (its token's digest, or its address). */
    private readonly client = '',
  ) {}

  /**
   * Starts `run` as a task and answers the wire's task at once. `limitMs` is the tool's task limit:
   * the run is cancelled after it (the flow's late answer is dropped, as for any timed-out call).
   */
  start(limitMs: number, run: (taskId: string, signal: AbortSignal, progress: (u: ProgressUpdate) => void) => Promise<ToolAnswer>): FlowTaskAnswer {
    const giveBack = this.budget.take(this.client); // throws the refusal the client reads
    const now = new Date().toISOString();
    const controller = new AbortController();
    const ttl = limitMs + KEPT_AFTER_END_MS;
    const wire: TaskWire = { taskId: randomUUID(), status: 'working', createdAt: now, lastUpdatedAt: now, ttl, pollInterval: POLL_INTERVAL_MS };
    const task: FlowTask = { wire, controller, done: Promise.resolve(), expiry: setTimeout(() => this.forget(wire.taskId), ttl) };
    task.expiry.unref?.();
    const progress = (u: ProgressUpdate) => {
      if (wire.status !== 'working') return;
      this.update(task, 'working', u.message ?? (u.total ? `${u.progress} of ${u.total}` : String(u.progress)));
    };
    // The flow's own wait ends at the limit with its reason; this only guards against a run that does not.
    const limit = setTimeout(() => controller.abort(new Error(`the task did not end within its limit of ${limitMs / 1000} s`)), limitMs + 5000);
    limit.unref?.();
    task.done = run(wire.taskId, controller.signal, progress)
      .then((answer) => (isToolResult(answer) ? answer : errorResult('the flow asked for input, which a task cannot carry: answer the call instead')))
      .catch((err: Error) => errorResult(err.message))
      .then((result) => {
        clearTimeout(limit);
        giveBack();
        if (wire.status === 'cancelled') return;
        task.result = result;
        this.update(task, result.isError ? 'failed' : 'completed');
      });
    this.tasks.set(wire.taskId, task);
    this.forgetOldestEnded();
    // The SDK checks a tools/call answer as a CallToolResult, which needs content; a client reading
    // it as a CreateTaskResult looks at `task` only.
    return { task: { ...wire }, content: [] };
  }

  /** Answers tasks/get, tasks/result, tasks/list and tasks/cancel on one SDK server. */
  serve(server: Server): void {
    // The SDK dispatches and checks these 2025-11-25 methods but leaves them out of its method types.
    const handle = server.setRequestHandler.bind(server) as unknown as (
      method: string,
      handler: (request: { params: { taskId: string } }, ctx: ServerContext) => unknown,
    ) => void;
    handle('tasks/get', (request) => ({ ...this.find(request.params.taskId).wire }));
    handle('tasks/list', () => ({ tasks: [...this.tasks.values()].map((t) => ({ ...t.wire })) }));
    handle('tasks/result', async (request, ctx) => {
      const task = this.find(request.params.taskId);
      const ended = new Promise<never>((_, reject) => ctx.mcpReq.signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true }));
      await Promise.race([task.done, ended]);
      if (task.wire.status === 'cancelled') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${task.wire.taskId} was cancelled`);
      return { ...task.result!, _meta: { ...task.result!._meta, [RELATED_TASK]: { taskId: task.wire.taskId } } };
    });
    handle('tasks/cancel', (request) => {
      const task = this.find(request.params.taskId);
      if (task.wire.status !== 'working')
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Task ${task.wire.taskId} has already ended (${task.wire.status})`);
      this.update(task, 'cancelled', 'cancelled by the client');
      task.controller.abort(new Error('the client cancelled the task'));
      return { ...task.wire };
    });
  }

  /** The serving unit ended: every running task is cancelled, and nothing stays behind. */
  close(): void {
    for (const task of this.tasks.values()) {
      if (task.wire.status === 'working') task.controller.abort(new Error('the client session ended'));
      clearTimeout(task.expiry);
    }
    this.tasks.clear();
  }

  get size(): number {
    return this.tasks.size;
  }

  private find(taskId: string): FlowTask {
    const task = this.tasks.get(taskId);
    if (!task) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId} (it ended long ago, or belongs to another session)`);
    return task;
  }

  private update(task: FlowTask, status: TaskStatus, statusMessage?: string): void {
    task.wire.status = status;
    if (statusMessage !== undefined) task.wire.statusMessage = statusMessage;
    else delete task.wire.statusMessage;
    task.wire.lastUpdatedAt = new Date().toISOString();
  }

  private forgetOldestEnded(): void {
    const ended = [...this.tasks.values()].filter((t) => t.wire.status !== 'working');
    for (const t of ended.slice(0, Math.max(0, ended.length - MAX_ENDED))) {
      clearTimeout(t.expiry);
      this.tasks.delete(t.wire.taskId);
    }
  }

  private forget(taskId: string): void {
    const task = this.tasks.get(taskId);
    if (task?.wire.status === 'working') task.controller.abort(new Error('the task expired'));
    this.tasks.delete(taskId);
  }
}
