// Flow tools as tasks on MCP 2026-07-28, where tasks are an extension (`io.modelcontextprotocol/tasks`,
// SEP-2663): the server decides per call. A Long-running tool called by a client that names the
// extension in its request's capabilities first runs as an ordinary call for a short moment, so a
// quick answer or a question to the person (input_required) is answered directly; after that the
// call becomes a task and the client gets the task's handle (`resultType: "task"`). The client polls
// `tasks/get`, which carries the result once the task ends (there is no tasks/result or tasks/list
// on this revision), answers the flow's questions with `tasks/update`, and may `tasks/cancel`.
//
// Every request of this revision is its own serving unit, so tasks live on the endpoint, each bound
// to the bearer token that created it: another token cannot see, answer or cancel it.
import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { checkedAnswer, clientAnswer, type ClientAnswer } from '../calls/asking-the-client';
import { TaskBudget } from './task-budget';
import { isToolResult, type CallToolResult, type ProgressUpdate, type ToolAnswer } from '../calls/types';
import { TASKS_EXTENSION, taskEnded } from '../../task-words';
import { tokenDigest } from '../calls/token-digest';

type Status = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The Task of the extension's schema: what tools/call (as a CreateTaskResult), tasks/get and the rest carry. */
/** A call answered with the task it became (the extension's CreateTaskResult). */
export type ExtensionTaskAnswer = { resultType: 'task' } & TaskState;

interface TaskState {
  taskId: string;
  status: Status;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
}

interface ExtensionTask {
  state: TaskState;
  owner: string;
  controller: AbortController;
  result?: CallToolResult;
  error?: { code: number; message: string };
  /** The flow's open questions, by key; each resolves with the person's answer from tasks/update. */
  asking: Map<string, { request: { method: string; params: Record<string, unknown> }; answer: (a: ClientAnswer) => void }>;
  nextKey: number;
  timers: NodeJS.Timeout[];
}

/** How a call can still go either way: answered directly, or as the task it became. */
export interface TaskableCall {
  taskId: string;
  /** Give this to the flow's call: fires when the client cancels, or the task is cancelled or expires. */
  signal: AbortSignal;
  /** Progress: a notification while the call is ordinary, the task's status message once it is a task. */
  progress(update: ProgressUpdate, direct: (update: ProgressUpdate) => Promise<void>): Promise<void>;
  /** The flow's question goes to the task once there is one (tasks/update answers it). */
  asTask(): { ask(params: Record<string, unknown>): Promise<ClientAnswer> } | undefined;
  /** The flow's question went the ordinary way (input_required, answered by the client's retry): no task. */
  keepOrdinary(): void;
  /** Waits `windowMs` for the flow, then answers with the task. */
  settle(answer: Promise<ToolAnswer>, windowMs: number): Promise<ToolAnswer | ExtensionTaskAnswer>;
}

/** How often a client is asked to poll. */
const POLL_INTERVAL_MS = 1000;
/** How long an ended task stays readable (on top of the tool's task limit). */
const KEPT_AFTER_END_MS = 5 * 60_000;
/** JSON-RPC's request timeout (the MCP SDKs' code): a task whose flow never answered within its limit. */
const REQUEST_TIMEOUT = -32001;

/** Whether this request's client named the tasks extension (only such a client may get a task). */
export function declaresTasks(ctx: ServerContext): boolean {
  const capabilities = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as
    { extensions?: Record<string, unknown> } | undefined;
  return Boolean(capabilities?.extensions?.[TASKS_EXTENSION]);
}

/** Who owns a task: the bearer token's digest (an anonymous endpoint's tasks are reached by id alone). */
const ownerOf = (ctx: ServerContext) => tokenDigest(ctx.http?.authInfo?.token ?? '');

const taskIdParams = {
  '~standard': {
    version: 1 as const,
    vendor: 'node-red-contrib-mcp-gemini',
    validate: (value: unknown) => {
      const taskId = (value as { taskId?: unknown } | null)?.taskId;
      return typeof taskId === 'string' && taskId ? { value: value as { taskId: string } } : { issues: [{ message: 'params.taskId must be a string' }] };
    },
  },
};

export class ExtensionTasks {
  private readonly tasks = new Map<string, ExtensionTask>();

  /** Running tasks count against `budget` (./task-budget.ts), each client by its token. */
  constructor(private readonly budget = new TaskBudget()) {}

  /** The server/discover capability. */
  static readonly capability = { [TASKS_EXTENSION]: {} };

  /** A Long-running tool's call by a client that named the extension: ordinary at first, a task once it runs long. */
  begin(ctx: ServerContext, limitMs: number, client = ownerOf(ctx)): TaskableCall {
    const owner = ownerOf(ctx);
    // A call that may become a task takes its place at once (it runs a flow either way); throws the refusal.
    const giveBack = this.budget.take(client);
    const controller = new AbortController();
    const taskId = randomUUID();
    let task: ExtensionTask | undefined;
    // Once the flow asked the person the ordinary way, the call stays ordinary: its retry answers it.
    let committed: 'ordinary' | 'task' | undefined;
    const onRequestAbort = () => {
      if (!task) controller.abort(ctx.mcpReq.signal.reason);
    };
    ctx.mcpReq.signal.addEventListener('abort', onRequestAbort, { once: true });
    // The limit counts from the call, and starts before the flow's own wait for the same limit, so
    // it fires first: a flow that never answers fails its task rather than completing it with an error.
    const limit = setTimeout(() => {
      const message = `the flow did not answer within the task limit of ${limitMs / 1000} s`;
      if (task) this.fail(task, REQUEST_TIMEOUT, message);
      else controller.abort(new Error(message));
    }, limitMs);
    limit.unref?.();
    const materialise = () => {
      committed = 'task';
      ctx.mcpReq.signal.removeEventListener('abort', onRequestAbort);
      task = this.create(taskId, owner, controller, limitMs, limit);
      return task;
    };
    return {
      taskId,
      signal: controller.signal,
      progress: async (u, direct) => {
        if (!task) return direct(u);
        if (task.state.status === 'working') this.update(task, 'working', u.message ?? (u.total ? `${u.progress} of ${u.total}` : String(u.progress)));
      },
      asTask: () => (task ? { ask: (params) => this.ask(task!, params) } : undefined),
      keepOrdinary: () => {
        if (!task) committed = 'ordinary';
      },
      settle: (answer, windowMs) =>
        new Promise((resolve, reject) => {
          // The place is given back when the flow's run ends (a cancel or a limit ends it too).
          answer.then(giveBack, giveBack);
          const window = setTimeout(() => {
            if (committed === 'ordinary') return; // the question is on its way back to the client
            const created = materialise();
            resolve({ resultType: 'task', ...created.state });
          }, windowMs);
          answer.then(
            (a) => {
              clearTimeout(window);
              ctx.mcpReq.signal.removeEventListener('abort', onRequestAbort);
              if (!task) {
                clearTimeout(limit);
                return resolve(a);
              }
              this.finish(task, isToolResult(a) ? a : undefined);
            },
            (err: unknown) => {
              clearTimeout(window);
              ctx.mcpReq.signal.removeEventListener('abort', onRequestAbort);
              const message = err instanceof Error ? err.message : String(err);
              if (task) return this.fail(task, err instanceof ProtocolError ? err.code : ProtocolErrorCode.InternalError, message);
              clearTimeout(limit);
              // Still an ordinary call: a protocol error is the request's JSON-RPC error, anything else a tool error.
              if (err instanceof ProtocolError) reject(err);
              else resolve({ content: [{ type: 'text', text: message }], isError: true });
            },
          );
        }),
    };
  }

  /** Answers tasks/get, tasks/update and tasks/cancel on one SDK server (one request of this revision). */
  serve(server: Server): void {
    const handle = (method: string, handler: (taskId: string, params: Record<string, unknown>, ctx: ServerContext) => Record<string, unknown>) =>
      (server.setRequestHandler as unknown as (m: string, s: unknown, h: (p: Record<string, unknown>, ctx: ServerContext) => unknown) => void)(
        method,
        { params: taskIdParams },
        (params, ctx) => {
          if (!declaresTasks(ctx))
            throw new MissingRequiredClientCapabilityError(
              { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
              `${method} needs the ${TASKS_EXTENSION} extension in the request's client capabilities`,
            );
          return handler(params.taskId as string, params, ctx);
        },
      );
    handle('tasks/get', (taskId, _p, ctx) => this.detailed(this.find(taskId, ctx)));
    handle('tasks/update', (taskId, params, ctx) => {
      const task = this.find(taskId, ctx);
      // The SDK lifts inputResponses out of the params of every request of this revision.
      const responses = ctx.mcpReq.inputResponses ?? params.inputResponses;
      if (!responses || typeof responses !== 'object' || Array.isArray(responses))
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, "tasks/update needs inputResponses: an object keyed by the task's inputRequests");
      // Keys that are not open (never asked, answered already) are ignored, as the extension says.
      // Every open answer is checked against its form first: one that does not fit refuses the whole update.
      const answers = Object.entries(responses).flatMap(([key, response]) => {
        const open = task.asking.get(key);
        return open ? [{ key, open, answer: checkedAnswer(clientAnswer(response), open.request.params.requestedSchema) }] : [];
      });
      for (const { key, open, answer } of answers) {
        task.asking.delete(key);
        open.answer(answer);
      }
      if (task.state.status === 'input_required' && task.asking.size === 0) this.update(task, 'working');
      return {};
    });
    handle('tasks/cancel', (taskId, _p, ctx) => {
      const task = this.find(taskId, ctx);
      // Cancelling an ended task is acknowledged the same way and changes nothing.
      if (!taskEnded(task.state.status)) {
        this.update(task, 'cancelled', 'cancelled by the client');
        this.release(task, new Error('the client cancelled the task'));
      }
      return {};
    });
  }

  /** The endpoint closes: every running task is cancelled, and nothing stays behind. */
  close(): void {
    for (const task of this.tasks.values()) {
      if (!taskEnded(task.state.status)) this.update(task, 'cancelled', 'the endpoint closed');
      this.release(task, new Error('the endpoint closed'));
    }
    this.tasks.clear();
  }

  get size(): number {
    return this.tasks.size;
  }

  private create(taskId: string, owner: string, controller: AbortController, limitMs: number, limit: NodeJS.Timeout): ExtensionTask {
    const now = new Date().toISOString();
    const ttlMs = limitMs + KEPT_AFTER_END_MS;
    const task: ExtensionTask = {
      state: { taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs, pollIntervalMs: POLL_INTERVAL_MS },
      owner,
      controller,
      asking: new Map(),
      nextKey: 1,
      timers: [],
    };
    const expiry = setTimeout(() => {
      this.release(task, new Error('the task expired'));
      this.tasks.delete(taskId);
    }, ttlMs);
    expiry.unref?.();
    task.timers.push(limit, expiry);
    this.tasks.set(taskId, task);
    return task;
  }

  private ask(task: ExtensionTask, params: Record<string, unknown>): Promise<ClientAnswer> {
    if (taskEnded(task.state.status)) return Promise.reject(new Error(`task ${task.state.taskId} has ended`));
    const key = `input-${task.nextKey++}`;
    const request = { method: 'elicitation/create', params: params.mode ? params : { mode: 'form', ...params } };
    return new Promise((resolve) => {
      task.asking.set(key, { request, answer: resolve });
      this.update(task, 'input_required', String(params.message ?? ''));
    });
  }

  private finish(task: ExtensionTask, result: CallToolResult | undefined): void {
    if (taskEnded(task.state.status)) return; // cancelled or failed at its limit: the late answer is dropped
    if (!result) return this.fail(task, ProtocolErrorCode.InternalError, 'the flow answered the task with a question instead of a result');
    const { _meta, ...rest } = result;
    task.result = { ...rest, ...(_meta && Object.keys(_meta).length ? { _meta } : {}) } as CallToolResult;
    this.update(task, 'completed');
    this.release(task);
  }

  private fail(task: ExtensionTask, code: number, message: string): void {
    if (taskEnded(task.state.status)) return;
    task.error = { code, message };
    this.update(task, 'failed', message);
    this.release(task, new Error(message));
  }

  /** The run is over: the flow's call is released and open questions are dropped; the record stays until its ttl. */
  private release(task: ExtensionTask, reason?: Error): void {
    clearTimeout(task.timers[0]);
    task.asking.clear();
    if (reason && !task.controller.signal.aborted) task.controller.abort(reason);
  }

  private detailed(task: ExtensionTask): Record<string, unknown> {
    const state = { ...task.state };
    if (state.status === 'input_required') return { ...state, inputRequests: Object.fromEntries([...task.asking].map(([k, v]) => [k, v.request])) };
    if (state.status === 'completed') return { ...state, result: task.result };
    if (state.status === 'failed') return { ...state, error: task.error };
    return state;
  }

  private find(taskId: string, ctx: ServerContext): ExtensionTask {
    const task = this.tasks.get(taskId);
    if (!task || task.owner !== ownerOf(ctx))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${taskId} (it ended long ago, or belongs to another client)`);
    return task;
  }

  private update(task: ExtensionTask, status: Status, statusMessage?: string): void {
    task.state.status = status;
    if (statusMessage) task.state.statusMessage = statusMessage;
    else delete task.state.statusMessage;
    task.state.lastUpdatedAt = new Date().toISOString();
  }
}
