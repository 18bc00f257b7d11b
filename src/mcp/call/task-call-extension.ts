// Long tools as tasks on MCP 2026-07-28, where tasks are the `io.modelcontextprotocol/tasks`
// extension (SEP-2663). The client names the extension in every request's capabilities; the server
// decides per call whether to answer `tools/call` with a task (`resultType: "task"`). Then the client
// polls `tasks/get` at the server's `pollIntervalMs`: the result (or the JSON-RPC error of a failed
// task) comes inline once the task ends, and a task that needs input lists its questions in
// `inputRequests`, answered with `tasks/update`. Cancelling sends `tasks/cancel`.
//
// The SDK we bundle (v2) keeps no runtime for this and its 2026 codec refuses `resultType: "task"`,
// so lenient-wire.ts takes the task off the wire and this file follows it with the SDK's generic
// request(), which sends tasks/* with the extension's routing header (Mcp-Name: the task id).
import { McpNodeError } from '../../errors';
import type { CallToolResult, Client } from '../protocol/sdk';
import { cancelQuietly, readTaskStatus, sleep, statusTeller, type TaskUpdate } from './task-call';
import { inputRequestOf, type ElicitParams, type InputAnswer, type InputAsker } from './input-requests';
import { customRequest } from '../protocol/custom-request';
import { taskEnded } from '../../task-words';

export interface ExtensionTaskOptions {
  /** Per request (each poll, each update). */
  timeoutMs: number;
  /** The whole task: the call gives up (and cancels) after it. */
  limitMs: number;
  signal?: AbortSignal;
  onUpdate?: (update: TaskUpdate) => void;
  /** Answers the server's questions; without it every question is declined. */
  ask?: InputAsker;
  /** Tests shorten the server's suggested poll interval; never below it in use. */
  minPollMs?: number;
}

/** Polls no faster than this whatever the server suggests, and no slower than the maximum. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5000;

/** The server's answer taken as sent; each answer is checked where it is used. */

/** A task as tools/call (CreateTaskResult) and tasks/get (DetailedTask) carry it. */
export interface ExtensionTaskWire {
  taskId?: unknown;
  status?: unknown;
  statusMessage?: unknown;
  pollIntervalMs?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
  inputRequests?: Record<string, { method?: unknown; params?: unknown }>;
}

export async function followExtensionTask(client: Client, name: string, created: ExtensionTaskWire, o: ExtensionTaskOptions): Promise<CallToolResult> {
  const deadline = Date.now() + o.limitMs;
  const request = <T>(method: string, params: Record<string, unknown>): Promise<T> =>
    customRequest<T>(client, method, params, { timeout: o.timeoutMs, signal: o.signal });
  let task = readTask(created, name);
  const answered = new Set<string>();
  const teller = statusTeller(o.onUpdate);
  const tell = () => teller(task);
  tell();
  try {
    for (;;) {
      if (task.status === 'completed') return readResult(task.wire, name);
      if (task.status === 'failed') throw failure(task, name);
      if (task.status === 'cancelled') throw new McpNodeError(`the server cancelled task ${task.taskId} of "${name}"`, 'cancelled', 'CANCELLED');
      if (task.status === 'input_required')
        await answerQuestions(task, answered, o, (responses) => request('tasks/update', { taskId: task.taskId, inputResponses: responses }));
      if (Date.now() + task.pollMs > deadline)
        throw new McpNodeError(`task ${task.taskId} of "${name}" did not end within ${Math.round(o.limitMs / 1000)} s`, 'timeout', 'TIMEOUT');
      await sleep(Math.max(o.minPollMs ?? MIN_POLL_MS, Math.min(MAX_POLL_MS, task.pollMs)), o.signal);
      task = readTask(await request<ExtensionTaskWire>('tasks/get', { taskId: task.taskId }), name, task.pollMs);
      tell();
    }
  } catch (err) {
    if (!taskEnded(task.status)) await cancelQuietly(client, task.taskId);
    throw err;
  }
}

interface FollowedTask extends TaskUpdate {
  pollMs: number;
  wire: ExtensionTaskWire;
}

function readTask(wire: ExtensionTaskWire, tool: string, pollMs = 1000): FollowedTask {
  return {
    ...readTaskStatus(wire, tool),
    pollMs: typeof wire.pollIntervalMs === 'number' && wire.pollIntervalMs > 0 ? wire.pollIntervalMs : pollMs,
    wire,
  };
}

function readResult(wire: ExtensionTaskWire, tool: string): CallToolResult {
  const result = wire.result as CallToolResult | undefined;
  if (!result || typeof result !== 'object' || !Array.isArray(result.content))
    throw new McpNodeError(`"${tool}": the server's completed task carries no result with content`, 'bad task', 'BAD_TASK');
  return result;
}

/** A failed task carries the JSON-RPC error its request ended with. */
function failure(task: FollowedTask, tool: string): McpNodeError {
  const e = task.wire.error;
  const message = typeof e?.message === 'string' ? e.message : (task.statusMessage ?? 'no reason given');
  const code = typeof e?.code === 'number' ? ` (${e.code})` : '';
  return new McpNodeError(`task ${task.taskId} of "${tool}" failed on the server: ${message}${code}`, 'task failed', 'TASK_FAILED');
}

/**
 * Each open question once: polls repeat the questions still open, and the server ignores answers to
 * keys it no longer waits on. Questions other than elicitation (this client offers no sampling or
 * roots) are left for the server's own limit.
 */
async function answerQuestions(
  task: FollowedTask,
  answered: Set<string>,
  o: ExtensionTaskOptions,
  update: (responses: Record<string, InputAnswer>) => Promise<unknown>,
): Promise<void> {
  const open = Object.entries(task.wire.inputRequests ?? {}).filter(([key, r]) => !answered.has(key) && r?.method === 'elicitation/create');
  for (const [key, r] of open) {
    answered.add(key);
    const answer: InputAnswer = o.ask ? await o.ask(inputRequestOf((r.params ?? {}) as ElicitParams)) : { action: 'decline' };
    await update({ [key]: answer });
  }
}
