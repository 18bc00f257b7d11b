// A 2026-07-28 MCP server with the tasks extension (io.modelcontextprotocol/tasks, SEP-2663), built
// from the extension's published text on the MCP server SDK (createMcpHandler behind the todo
// example's node:http endpoint): it advertises the extension, answers a call with a task only when
// the request's client capabilities name the extension, carries the result or error inline in
// tasks/get, lists questions in inputRequests until tasks/update answers them, and acknowledges
// tasks/cancel with an empty result. Nothing of the client under test is used here.
import { randomUUID } from 'node:crypto';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode, Server, type ServerContext, type Tool } from '@modelcontextprotocol/server';
import { serveHttp, type HttpEndpoint } from '../../servers/todo/http-transport';

const TASKS = 'io.modelcontextprotocol/tasks';
const object = { type: 'object' as const, properties: {} };
export const TASK_TOOLS: Tool[] = [
  { name: 'year_report', description: 'Sums a year of meter readings (takes a while).', inputSchema: object },
  { name: 'ask_budget', description: 'Asks for a monthly budget, then sets it.', inputSchema: object },
  { name: 'broken_job', description: 'Its database is offline.', inputSchema: object },
  { name: 'forever', description: 'Never finishes.', inputSchema: object },
  { name: 'quick', description: 'Answers at once.', inputSchema: object },
];

interface PeerTask {
  taskId: string;
  tool: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  polls: number;
  answer?: { action?: string; content?: Record<string, unknown> };
  createdAt: string;
  lastUpdatedAt: string;
}

export interface TasksExtensionServer extends HttpEndpoint {
  tasks: Map<string, PeerTask>;
}

const POLL_INTERVAL_MS = 100;
const declares = (ctx: ServerContext) =>
  Boolean(
    (ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope] as { extensions?: Record<string, unknown> } | undefined)
      ?.extensions?.[TASKS],
  );
const taskIdOnly = {
  '~standard': { version: 1 as const, vendor: 'test-peer', validate: (value: unknown) => ({ value: value as { taskId: string } }) },
};

/** Moves a task on by one poll: each tool's script. */
function advance(t: PeerTask): void {
  t.polls++;
  if (t.status !== 'working' && t.status !== 'input_required') return;
  if (t.tool === 'year_report') {
    if (t.polls < 3) t.statusMessage = `month ${t.polls * 4} of 12`;
    else Object.assign(t, { status: 'completed', statusMessage: undefined });
  } else if (t.tool === 'ask_budget') {
    if (!t.answer) t.status = 'input_required';
    else t.status = 'completed';
  } else if (t.tool === 'broken_job') {
    t.status = 'failed';
  }
  t.lastUpdatedAt = new Date().toISOString();
}

function detailed(t: PeerTask): Record<string, unknown> {
  const base = {
    taskId: t.taskId,
    status: t.status,
    ...(t.statusMessage ? { statusMessage: t.statusMessage } : {}),
    createdAt: t.createdAt,
    lastUpdatedAt: t.lastUpdatedAt,
    ttlMs: 60_000,
    pollIntervalMs: POLL_INTERVAL_MS,
  };
  if (t.status === 'input_required')
    return {
      ...base,
      inputRequests: {
        budget: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Monthly budget in kWh?',
            requestedSchema: { type: 'object', properties: { limit: { type: 'number' } }, required: ['limit'] },
          },
        },
      },
    };
  if (t.status === 'failed') return { ...base, error: { code: -32603, message: 'the meter database is offline' } };
  if (t.status !== 'completed') return base;
  const text =
    t.tool === 'year_report' ? 'Year: 3600 kWh' : t.answer?.action === 'accept' ? `Budget set to ${String(t.answer.content?.limit)} kWh` : 'No budget set';
  return { ...base, result: { content: [{ type: 'text', text }], isError: false } };
}

export async function startTasksExtensionServer(): Promise<TasksExtensionServer> {
  const tasks = new Map<string, PeerTask>();
  const find = (taskId: string) => {
    const t = tasks.get(taskId);
    if (!t) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task ${taskId}`);
    return t;
  };
  const endpoint = await serveHttp(
    () => {
      const server = new Server({ name: 'tasks-extension-peer', version: '1.0.0' }, { capabilities: { tools: {}, extensions: { [TASKS]: {} } } });
      server.setRequestHandler('tools/list', () => ({ tools: TASK_TOOLS }));
      server.setRequestHandler('tools/call', (request, ctx) => {
        const tool = request.params.name;
        if (tool === 'quick' || !declares(ctx)) return { content: [{ type: 'text', text: `${tool} ran without a task` }] };
        const now = new Date().toISOString();
        const t: PeerTask = { taskId: randomUUID(), tool, status: 'working', polls: 0, createdAt: now, lastUpdatedAt: now };
        tasks.set(t.taskId, t);
        const { result: _r, error: _e, inputRequests: _i, ...created } = detailed(t);
        return { resultType: 'task', ...created } as never;
      });
      const handle = server.setRequestHandler.bind(server) as unknown as (m: string, s: unknown, h: (p: any, ctx: ServerContext) => unknown) => void;
      handle('tasks/get', { params: taskIdOnly }, (params) => {
        const t = find(params.taskId);
        advance(t);
        return detailed(t);
      });
      handle('tasks/update', { params: taskIdOnly }, (params, ctx) => {
        const t = find(params.taskId);
        const answer = ((ctx.mcpReq.inputResponses ?? params.inputResponses) as Record<string, PeerTask['answer']> | undefined)?.budget;
        if (answer && t.status === 'input_required') Object.assign(t, { answer, status: 'working' });
        return {};
      });
      handle('tasks/cancel', { params: taskIdOnly }, (params) => {
        const t = find(params.taskId);
        if (t.status === 'working' || t.status === 'input_required') t.status = 'cancelled';
        return {};
      });
      return server;
    },
    0,
    '127.0.0.1',
  );
  return Object.assign(endpoint, { tasks });
}
