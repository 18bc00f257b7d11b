// A flow tool as a task on MCP 2026-07-28, where tasks are the io.modelcontextprotocol/tasks
// extension (SEP-2663). The wire itself is held to the conformance suite's tasks-* scenarios
// (conformance.test.ts); this spec checks what a flow author and a second client see. The client
// here is a plain JSON-RPC-over-HTTP client written from the extension's published text (headers,
// per-request _meta capabilities, resultType "task", tasks/get with the result inline,
// tasks/update, tasks/cancel), so nothing of ours sits on the client side.
import assert from 'node:assert/strict';
import { helper } from '../helpers/runtime';
import { waitFor } from '../helpers/wait';
import { baseUrl, heldCalls, loadFlow, pendingCount, startEndpointRuntime, stopEndpointRuntime, type FlowNode } from './harness';

const TOKEN = 'tok-ext-tasks-41c2';
const OTHER = 'tok-ext-tasks-other-77ab';
const TASKS = 'io.modelcontextprotocol/tasks';

function flow(): FlowNode[] {
  return [
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', name: 'reports' },
    { id: 'in-report', type: 'mcp-tool-in', endpoint: 'ep', name: 'energy_report', longRunning: true, taskLimit: 20, timeout: 5, wires: [['held']] },
    { id: 'in-short', type: 'mcp-tool-in', endpoint: 'ep', name: 'short_report', longRunning: true, taskLimit: 1, wires: [['held']] },
    { id: 'held', type: 'helper' },
    { id: 'out', type: 'mcp-tool-out' },
  ];
}

const send = (msg: any) => helper.getNode('out').receive(msg);
const taskCount = () => helper.getNode('ep').endpoint.extensionTasks.size as number;

let nextId = 1;
/** One 2026-07-28 request: the standard headers, and the client's capabilities in the request's _meta. */
async function rpc(method: string, params: Record<string, unknown>, o: { token?: string; tasks?: boolean } = {}): Promise<any> {
  const name = method === 'tools/call' ? params.name : (params.taskId as string | undefined);
  const capabilities = { elicitation: {}, ...(o.tasks === false ? {} : { extensions: { [TASKS]: {} } }) };
  const response = await fetch(new URL('/mcp', baseUrl), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
      Authorization: `Bearer ${o.token ?? TOKEN}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'spec-text-client', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const text = await response.text();
  // A response may come as one SSE event; the JSON-RPC message is its data.
  const body = JSON.parse(
    text.startsWith('{')
      ? text
      : text
          .split('\n')
          .find((l) => l.startsWith('data:'))!
          .slice(5),
  );
  return body;
}

describe('mcp-endpoint: a long-running flow tool as a task (MCP 2026-07-28, tasks extension)', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);
  beforeEach(() => loadFlow(flow(), { ep: { tokens: `${TOKEN}\n${OTHER}` } }));

  it('the flow gets the task id; its progress is the status message; its answer is the result inline in tasks/get', async () => {
    const held = heldCalls();
    const created = (await rpc('tools/call', { name: 'energy_report', arguments: {} })).result;
    assert.equal(created.resultType, 'task');
    assert.equal(created.status, 'working');
    assert.equal(held[0].mcp.taskId, created.taskId, 'the flow sees the task it is working for');
    send({ ...held[0], topic: 'progress', payload: { progress: 1, total: 3, message: 'reading meters' } });
    const working = (await rpc('tasks/get', { taskId: created.taskId })).result;
    assert.equal(working.statusMessage, 'reading meters');
    assert.equal(working.result, undefined);
    send({ ...held[0], payload: '12.4 kWh' });
    const done = (await rpc('tasks/get', { taskId: created.taskId })).result;
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.result.content, [{ type: 'text', text: '12.4 kWh' }]);
    assert.equal(pendingCount(), 0);
  });

  it('a flow that asks the person once it is a task: the question is in tasks/get, tasks/update brings the answer to the flow', async () => {
    const held = heldCalls();
    const { taskId } = (await rpc('tools/call', { name: 'energy_report', arguments: {} })).result;
    send({ ...held[0], input: { message: 'Which month?', schema: { type: 'object', properties: { month: { type: 'string' } } } } });
    const asking = (await rpc('tasks/get', { taskId })).result;
    assert.equal(asking.status, 'input_required');
    const [key, request] = Object.entries(asking.inputRequests as Record<string, any>)[0];
    assert.equal(request.method, 'elicitation/create');
    assert.equal(request.params.message, 'Which month?');
    assert.equal(
      (await rpc('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { month: 'May' } } } })).result.resultType,
      'complete',
    );
    const answered = await waitFor(() => held[1], 'the answer reached the flow');
    assert.deepEqual(answered.input, { action: 'accept', content: { month: 'May' } });
    assert.equal((await rpc('tasks/get', { taskId })).result.status, 'working');
    send({ ...answered, input: undefined, payload: 'May: 300 kWh' });
    assert.equal((await rpc('tasks/get', { taskId })).result.result.content[0].text, 'May: 300 kWh');
  });

  it("another token cannot see, answer or cancel the task; a cancel releases the flow's call", async () => {
    const held = heldCalls();
    const { taskId } = (await rpc('tools/call', { name: 'energy_report', arguments: {} })).result;
    for (const method of ['tasks/get', 'tasks/cancel'] as const) {
      const foreign = await rpc(method, { taskId }, { token: OTHER });
      assert.equal(foreign.error?.code, -32602, `${method} from another token: ${JSON.stringify(foreign)}`);
    }
    const update = await rpc('tasks/update', { taskId, inputResponses: {} }, { token: OTHER });
    assert.equal(update.error?.code, -32602);
    const ungated = await rpc('tasks/get', { taskId }, { tasks: false });
    assert.equal(ungated.error?.code, -32021, 'a request without the extension is refused');
    assert.equal((await rpc('tasks/cancel', { taskId })).result.resultType, 'complete');
    await waitFor(() => pendingCount() === 0 || undefined, 'the cancel released the waiting call');
    assert.equal((await rpc('tasks/get', { taskId })).result.status, 'cancelled');
    send({ ...held[0], payload: 'too late' });
    assert.equal((await rpc('tasks/get', { taskId })).result.status, 'cancelled', 'a late answer changes nothing');
  });

  it('a flow that never answers: the task fails at its limit and nothing stays waiting; a redeploy cancels running tasks', async () => {
    heldCalls();
    const { taskId } = (await rpc('tools/call', { name: 'short_report', arguments: {} })).result;
    const failed = await (async () => {
      for (;;) {
        const t = (await rpc('tasks/get', { taskId })).result;
        if (t.status !== 'working') return t;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, -32001);
    assert.match(failed.error.message, /task limit of 1 s/);
    assert.equal(failed.result, undefined);
    await waitFor(() => pendingCount() === 0 || undefined, 'no call stays pending');

    const running = (await rpc('tools/call', { name: 'energy_report', arguments: {} })).result;
    assert.equal(running.status, 'working');
    assert.equal(taskCount(), 2);
    await loadFlow(flow(), { ep: { tokens: `${TOKEN}\n${OTHER}` } });
    const after = await rpc('tasks/get', { taskId: running.taskId });
    assert.equal(after.error?.code, -32602, 'the redeployed endpoint no longer holds the old tasks');
    assert.equal(pendingCount(), 0);
  });

  it('a quick flow is answered directly, and a client without the extension never gets a task', async () => {
    const held = heldCalls();
    const quick = rpc('tools/call', { name: 'energy_report', arguments: {} });
    send({ ...(await waitFor(() => held[0], 'the call reached the flow')), payload: 'at once' });
    const direct = (await quick).result;
    assert.equal(direct.resultType, 'complete');
    assert.equal(direct.content[0].text, 'at once');
    const plain = rpc('tools/call', { name: 'energy_report', arguments: {} }, { tasks: false });
    const msg = await waitFor(() => held[1], 'the second call reached the flow');
    assert.equal(msg.mcp.taskId, undefined);
    await new Promise((r) => setTimeout(r, 700)); // past the moment a task-capable call becomes a task
    send({ ...msg, payload: 'ordinary' });
    const result = (await plain).result;
    assert.equal(result.resultType, 'complete');
    assert.equal(result.content[0].text, 'ordinary');
    assert.equal(taskCount(), 0);
  });
});

describe('mcp-endpoint: tasks running at once are bounded per client and per endpoint (2026-07-28)', function () {
  this.timeout(30000);
  before(startEndpointRuntime);
  after(stopEndpointRuntime);

  it('a client past "per client" and anyone past "Tasks" get an error that says which; a place comes back when a task ends', async () => {
    const bounded = flow().map((n) => (n.id === 'ep' ? { ...n, maxTasks: 3, tasksPerClient: 2 } : n));
    await loadFlow(bounded, { ep: { tokens: `${TOKEN}\n${OTHER}\ntok-third-5e5e` } });
    const held = heldCalls();
    const call = (token: string) => rpc('tools/call', { name: 'energy_report', arguments: {} }, { token });
    const first = await Promise.all([call(TOKEN), call(TOKEN)]);
    assert.deepEqual(
      first.map((r) => r.result?.resultType),
      ['task', 'task'],
    );
    const third = await call(TOKEN);
    assert.match(third.error?.message ?? '', /This client runs its most tasks at once \(2\)/);
    assert.equal((await call(OTHER)).result?.resultType, 'task');
    const full = await call('tok-third-5e5e');
    assert.match(full.error?.message ?? '', /This endpoint runs its most tasks at once \(3\)/);
    await waitFor(() => held.length >= 3 || undefined, 'three calls at the flow');
    send({ ...held[0], payload: 'done' });
    // The flow answered one task: its place comes back once the answer has ended the run.
    let again: any;
    for (let i = 0; i < 100 && again?.result?.resultType !== 'task'; i++) {
      again = await call(TOKEN);
      if (again.result?.resultType !== 'task') await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(again?.result?.resultType, 'task', JSON.stringify(again));
    assert.equal(held.length, 4, 'refused calls never reached the flow');
  });
});
