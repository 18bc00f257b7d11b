// A flow tool as a task (mcp-tool-in *Long-running*), against clients with a task runtime: the v1
// MCP SDK's client (experimental.tasks: callToolStream, getTask, cancelTask), which nobody here
// wrote, and our own session. The client gets the task before the flow has answered; the flow's
// progress shows as the task's status message; its answer is the task's result; a cancel, the
// task limit and the end of the session each release the waiting call; another session cannot see
// the task; a 2026-07-28 client calls the tool the ordinary way.
import assert from 'node:assert/strict';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { helper } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';
import { baseUrl, connect, disconnect, heldCalls, loadFlow, pendingCount, startEndpointRuntime, stopEndpointRuntime, textOf, type FlowNode } from './harness';
import { McpSession } from '../../src/mcp/session';
import type { TaskUpdate } from '../../src/mcp/call/task-call';

const TOKEN = 'tok-tasks-9d1f';

function flow(): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'reports' },
    { id: 'in-report', type: 'mcp-tool-in', endpoint: 'ep', name: 'energy_report', longRunning: true, taskLimit: 20, timeout: 1, wires: [['held']] },
    { id: 'in-short', type: 'mcp-tool-in', endpoint: 'ep', name: 'short_report', longRunning: true, taskLimit: 1, wires: [['held']] },
    { id: 'in-plain', type: 'mcp-tool-in', endpoint: 'ep', name: 'plain', wires: [['out']] },
    { id: 'held', type: 'helper' },
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

const answer = (msg: any, payload: unknown, topic?: string) => helper.getNode('out').receive({ ...msg, payload, ...(topic ? { topic } : {}) });
/** Polls an asynchronous check (a request to the server) until it holds. */
async function poll(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function v1Client(): Promise<{ client: V1Client; close(): Promise<void> }> {
  const transport = new V1Transport(new URL('/mcp', baseUrl), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  const client = new V1Client({ name: 'v1-task-client', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return {
    client,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

describe('mcp-endpoint: a long-running flow tool as a task (MCP 2025-11-25)', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() => loadFlow(flow(), { ep: { tokens: TOKEN } }));

  it('the tool is listed as task-capable and the endpoint offers tasks for tools/call', async () => {
    const c = await v1Client();
    try {
      assert.deepEqual(c.client.getServerCapabilities()?.tasks?.requests, { tools: { call: {} } });
      const { tools } = await c.client.listTools();
      assert.deepEqual(tools.find((t) => t.name === 'energy_report')?.execution, { taskSupport: 'optional' });
      assert.equal(tools.find((t) => t.name === 'plain')?.execution, undefined);
    } finally {
      await c.close();
    }
  });

  it("the v1 SDK client gets the task before the flow answers; the flow's progress and answer reach it", async () => {
    const held = heldCalls();
    const c = await v1Client();
    try {
      const stream = c.client.experimental.tasks.callToolStream({ name: 'energy_report', arguments: { month: 'May' } }, CallToolResultSchema, {
        task: { ttl: 60_000 },
      });
      const seen: string[] = [];
      let taskId = '';
      for await (const message of stream) {
        if (message.type === 'taskCreated') {
          taskId = message.task.taskId;
          seen.push('created');
          // Created while the flow still holds the call: longer than the tool's 1 s Timeout.
          await waitFor(() => held[0], 'the call reached the flow');
          assert.equal(held[0].mcp.taskId, taskId);
          assert.deepEqual(held[0].payload, { month: 'May' });
          await new Promise((r) => setTimeout(r, 1500));
          answer(held[0], { progress: 1, total: 2, message: 'meters read' }, 'progress');
          await poll('the status message', async () => (await c.client.experimental.tasks.getTask(taskId)).statusMessage === 'meters read');
          answer(held[0], 'May: 312 kWh');
        } else if (message.type === 'taskStatus') seen.push(message.task.status);
        else if (message.type === 'result') {
          assert.equal(textOf(message.result), 'May: 312 kWh');
          seen.push('result');
        } else assert.fail(`error: ${message.error?.message}`);
      }
      assert.equal(seen[0], 'created');
      assert.equal(seen.at(-1), 'result');
      assert.equal((await c.client.experimental.tasks.getTask(taskId)).status, 'completed');
      assert.equal(pendingCount(), 0);
    } finally {
      await c.close();
    }
  });

  it('our own client (mcp-call-tool, the agent) calls it as a task and reports each status', async () => {
    const held = heldCalls();
    const session = new McpSession({
      id: 'own',
      name: 'own',
      transport: 'http',
      url: new URL('/mcp', baseUrl).href,
      token: TOKEN,
      timeoutMs: 5000,
      protocolVersion: '2025-11-25',
    });
    try {
      await session.listTools();
      const updates: TaskUpdate[] = [];
      const result = session.callTool('energy_report', { month: 'June' }, { onTaskUpdate: (u) => updates.push(u) });
      await waitFor(() => held[0], 'the call reached the flow');
      answer(held[0], { progress: 1, message: 'half way' }, 'progress');
      await waitFor(() => updates.find((u) => u.statusMessage === 'half way'), 'the progress as status');
      answer(held[0], 'June: 280 kWh');
      assert.equal(textOf(await result), 'June: 280 kWh');
      assert.equal(updates[0].status, 'working');
      assert.equal(updates.at(-1)!.status, 'completed');
    } finally {
      await session.close();
    }
  });

  it("a cancel releases the flow's call, and another session cannot see, read or cancel the task", async () => {
    const held = heldCalls();
    const a = await v1Client();
    const b = await v1Client();
    try {
      const created = (await a.client.request(
        { method: 'tools/call', params: { name: 'energy_report', arguments: {}, task: { ttl: 60_000 } } },
        // the answer is a CreateTaskResult
        (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema,
      )) as { task: { taskId: string } };
      const taskId = created.task.taskId;
      await waitFor(() => held[0], 'the call reached the flow');
      assert.equal(pendingCount(), 1);
      await assert.rejects(b.client.experimental.tasks.getTask(taskId), /Unknown task/);
      await assert.rejects(b.client.experimental.tasks.cancelTask(taskId), /Unknown task/);
      assert.deepEqual((await b.client.experimental.tasks.listTasks()).tasks, []);
      await a.client.experimental.tasks.cancelTask(taskId);
      assert.equal((await a.client.experimental.tasks.getTask(taskId)).status, 'cancelled');
      await waitFor(() => pendingCount() === 0 || undefined, 'the waiting call released');
      answer(held[0], 'too late'); // dropped: nothing waits for it
      assert.equal((await a.client.experimental.tasks.getTask(taskId)).status, 'cancelled');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a flow that never answers: the task fails at its limit, and a session that ends takes its tasks along', async () => {
    const held = heldCalls();
    const c = await v1Client();
    const schema = (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema;
    const create = (name: string) =>
      c.client.request({ method: 'tools/call', params: { name, arguments: {}, task: { ttl: 60_000 } } }, schema) as Promise<{ task: { taskId: string } }>;
    try {
      const short = await create('short_report');
      await poll('failed at the limit', async () => (await c.client.experimental.tasks.getTask(short.task.taskId)).status === 'failed');
      const result = await c.client.experimental.tasks.getTaskResult(short.task.taskId, CallToolResultSchema);
      assert.equal(result.isError, true);
      assert.match(textOf(result), /No flow answered the call of short_report within 1 s/);
      await create('energy_report');
      await waitFor(() => (held.length === 2 ? true : undefined), 'the second call reached the flow');
      assert.equal(pendingCount(), 1);
    } finally {
      await c.close();
    }
    await waitFor(() => pendingCount() === 0 || undefined, 'the session ended, its task was cancelled');
  });

  it('a 2026-07-28 client sees no task support and calls the tool the ordinary way', async () => {
    const held = heldCalls();
    const c = await connect('/mcp', '2026-07-28', TOKEN);
    try {
      const { tools } = await c.client.listTools();
      assert.equal((tools.find((t) => t.name === 'energy_report') as { execution?: unknown })?.execution, undefined);
      const call = c.client.callTool({ name: 'energy_report', arguments: {} });
      await waitFor(() => held[0], 'the call reached the flow');
      assert.equal(held[0].mcp.taskId, undefined);
      answer(held[0], 'done at once');
      assert.equal(textOf(await call), 'done at once');
    } finally {
      await disconnect(c);
    }
  });
});

describe('mcp-endpoint: tasks running at once are bounded per client (2025-11-25)', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  it('the v1 SDK client gets its task refused past "per client", with a message that says so; the flow never sees it', async () => {
    await loadFlow(
      flow().map((n) => (n.id === 'ep' ? { ...n, tasksPerClient: 2 } : n)),
      { ep: { tokens: TOKEN } },
    );
    const held = heldCalls();
    const c = await v1Client();
    try {
      const start = async () => {
        const stream = c.client.experimental.tasks.callToolStream({ name: 'energy_report', arguments: {} }, CallToolResultSchema, { task: { ttl: 60_000 } });
        for await (const message of stream) {
          if (message.type === 'taskCreated') return 'task';
          if (message.type === 'error') return message.error?.message ?? 'error';
        }
        return 'nothing';
      };
      assert.deepEqual([await start(), await start()], ['task', 'task']);
      assert.match(await start(), /This client runs its most tasks at once \(2\)/);
      await waitFor(() => held.length >= 2 || undefined, 'two calls at the flow');
      assert.equal(held.length, 2);
    } finally {
      await c.close();
    }
  });
});
