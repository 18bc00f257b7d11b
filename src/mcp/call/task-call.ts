// Long tools as tasks (MCP 2025-11-25, "tasks"): a server that offers them for tools/call and a tool
// that declares `execution.taskSupport` get a task-augmented call. The server answers at once with
// a task; the client polls `tasks/get` at the server's pollInterval, hands every status change to
// the caller, and fetches the result with `tasks/result` once the task ends, or as soon as it needs
// input (the server's input requests travel on that request's response). Cancelling sends
// `tasks/cancel`, not `notifications/cancelled`. The SDK we bundle (v2) keeps the wire vocabulary of
// tasks but no runtime for them, so the few requests are made here with its generic request().
import { McpNodeError } from '../../errors';
import type { CallToolResult, Client, Tool } from '../protocol/sdk';
import { customRequest } from '../protocol/custom-request';
import { taskEnded } from '../../task-words';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** What a caller sees of a running task: each change of status or status message. */
export interface TaskUpdate {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
}

export interface TaskCallOptions {
  /** Per request (the call that creates the task, each poll, the result). */
  timeoutMs: number;
  /** The whole task: asked of the server as its ttl, and the call gives up (and cancels) after it. */
  limitMs: number;
  signal?: AbortSignal;
  onUpdate?: (update: TaskUpdate) => void;
  /** Tests shorten the server's suggested poll interval; never below it in use. */
  minPollMs?: number;
}

/** Polls no faster than this whatever the server suggests, and no slower than the maximum. */
const MIN_POLL_MS = 100;
const MAX_POLL_MS = 5000;

/** The server's answer taken as sent; each answer is checked where it is used. */

interface TaskWire {
  taskId?: unknown;
  status?: unknown;
  statusMessage?: unknown;
  pollInterval?: unknown;
}

/** Hands the caller each change of a task's status or status message, once. */
export function statusTeller(onUpdate: ((update: TaskUpdate) => void) | undefined): (task: TaskUpdate) => void {
  let said = '';
  return (task) => {
    const key = `${task.status}\u0000${task.statusMessage ?? ''}`;
    if (key === said) return;
    said = key;
    onUpdate?.({ taskId: task.taskId, status: task.status, ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}) });
  };
}

/** Whether a call of this tool on this connection goes as a task. */
export function runsAsTask(client: Client, tool: Tool | undefined): boolean {
  const support = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
  if (support !== 'required' && support !== 'optional') return false;
  const tasks = (client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  return Boolean(tasks?.requests?.tools?.call);
}

export async function callAsTask(client: Client, name: string, args: Record<string, unknown>, o: TaskCallOptions): Promise<CallToolResult> {
  const deadline = Date.now() + o.limitMs;
  const request = <T>(method: string, params: Record<string, unknown>, timeout = o.timeoutMs): Promise<T> =>
    customRequest<T>(client, method, params, { timeout, signal: o.signal });

  const created = await request<{ task?: TaskWire } & Partial<CallToolResult>>('tools/call', { name, arguments: args, task: { ttl: o.limitMs } });
  // A server may run an optional-task tool at once and answer it as a plain call.
  if (!created.task) return created as CallToolResult;
  let task = readTask(created.task, name);
  const teller = statusTeller(o.onUpdate);
  const tell = () => teller(task);
  tell();
  try {
    while (!taskEnded(task.status) && task.status !== 'input_required') {
      if (Date.now() + task.pollMs > deadline)
        throw new McpNodeError(`task ${task.taskId} of "${name}" did not end within ${Math.round(o.limitMs / 1000)} s`, 'timeout', 'TIMEOUT');
      await sleep(Math.max(o.minPollMs ?? MIN_POLL_MS, Math.min(MAX_POLL_MS, task.pollMs)), o.signal);
      task = { ...readTask(await request<TaskWire>('tasks/get', { taskId: task.taskId }), name), pollMs: task.pollMs };
      tell();
    }
    if (task.status === 'cancelled') throw new McpNodeError(`the server cancelled task ${task.taskId} of "${name}"`, 'cancelled', 'CANCELLED');
    // Blocks until the task ends; an input request of the task arrives on its response meanwhile.
    const result = await request<CallToolResult>('tasks/result', { taskId: task.taskId }, Math.max(o.timeoutMs, deadline - Date.now()));
    if (task.status !== 'completed' && task.status !== 'failed') {
      // It needed input and has ended since: the last status is worth showing as well.
      task = {
        ...readTask(await request<TaskWire>('tasks/get', { taskId: task.taskId }).catch(() => ({ ...task, status: 'completed' })), name),
        pollMs: task.pollMs,
      };
      tell();
    }
    return result;
  } catch (err) {
    if (!taskEnded(task.status)) await cancelQuietly(client, task.taskId);
    throw err;
  }
}

function readTask(wire: TaskWire, tool: string): TaskUpdate & { pollMs: number } {
  return { ...readTaskStatus(wire, tool), pollMs: typeof wire.pollInterval === 'number' && wire.pollInterval > 0 ? wire.pollInterval : 1000 };
}

/** A task's id, status and status message as the server sent them, checked (both revisions). */
export function readTaskStatus(wire: { taskId?: unknown; status?: unknown; statusMessage?: unknown }, tool: string): TaskUpdate {
  if (typeof wire.taskId !== 'string' || typeof wire.status !== 'string') {
    throw new McpNodeError(`"${tool}": the server's task has no taskId or status (${JSON.stringify(wire).slice(0, 200)})`, 'bad task', 'BAD_TASK');
  }
  return { taskId: wire.taskId, status: wire.status as TaskStatus, ...(typeof wire.statusMessage === 'string' ? { statusMessage: wire.statusMessage } : {}) };
}

export async function cancelQuietly(client: Client, taskId: string): Promise<void> {
  try {
    await customRequest(client, 'tasks/cancel', { taskId }, { timeout: 5000 });
  } catch {
    // The task ends at its ttl anyway; the caller's own error says what happened.
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
