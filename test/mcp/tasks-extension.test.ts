// Long tools as tasks on MCP 2026-07-28 (the io.modelcontextprotocol/tasks extension), against a
// server built from the extension's text on the MCP server SDK (test/peers/tasks-extension-server.ts)
// behind a recording proxy: the session names the extension in its requests, follows the task the
// server answers with (tasks/get, the result inline), answers its question with tasks/update,
// reports a failed task's error, and cancels with tasks/cancel; mcp-call-tool turns the same into
// messages (output 2 per status, the result on output 1, msg.input answers, msg.cancel cancels).
import assert from 'node:assert/strict';
import { McpSession } from '../../src/mcp/session';
import type { TaskUpdate } from '../../src/mcp/call/task-call';
import { startTasksExtensionServer, type TasksExtensionServer } from '../peers/tasks-extension-server';
import { startRecordingProxy, type RecordingProxy } from '../peers/recording-proxy';
import { helper, load, nextMessage, nextMessageWithTopic, send, startRuntime, stopRuntime, until } from '../helpers/runtime';

const TASKS = 'io.modelcontextprotocol/tasks';
const text = (r: { content?: unknown }) => ((r.content as Array<{ text?: string }>) ?? []).map((c) => c.text ?? '').join('');

describe('tools as tasks (MCP 2026-07-28, the tasks extension)', function () {
  this.timeout(30_000);
  let peer: TasksExtensionServer;
  let proxy: RecordingProxy;
  let session: McpSession;
  before(async () => {
    peer = await startTasksExtensionServer();
    proxy = await startRecordingProxy(peer.url);
  });
  after(async () => {
    await proxy?.close();
    await peer?.close();
  });
  beforeEach(() => {
    session = new McpSession({ id: 'x', name: 'tasks peer', transport: 'http', url: proxy.url, timeoutMs: 10_000, protocolVersion: '2026-07-28' });
  });
  afterEach(() => session.close());
  const sentSince = (from: number) => proxy.requests.slice(from);

  it('the session names the extension; a task is followed with tasks/get until its result, each status reported', async () => {
    const from = proxy.requests.length;
    const updates: TaskUpdate[] = [];
    const result = await session.callTool('year_report', {}, { onTaskUpdate: (u) => updates.push(u) });
    assert.equal(text(result), 'Year: 3600 kWh');
    assert.deepEqual(
      updates.map((u) => [u.status, u.statusMessage]),
      [
        ['working', undefined],
        ['working', 'month 4 of 12'],
        ['working', 'month 8 of 12'],
        ['completed', undefined],
      ],
    );
    const sent = sentSince(from);
    const call = sent.find((r) => r.method === 'tools/call')!;
    const meta = call.params?._meta as Record<string, { extensions?: Record<string, unknown> }>;
    assert.ok(meta['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS], JSON.stringify(call.params));
    assert.equal(sent.filter((r) => r.method === 'tasks/get').length, 3);
    assert.ok(!sent.some((r) => r.method === 'tasks/result'), 'no tasks/result on this revision');
  });

  it("the task's question goes to the caller once, and tasks/update brings the answer", async () => {
    const from = proxy.requests.length;
    const asked: string[] = [];
    const result = await session.callTool(
      'ask_budget',
      {},
      {
        onInputRequest: async (request) => {
          asked.push(request.message);
          assert.deepEqual(request.schema?.required, ['limit']);
          return { action: 'accept', content: { limit: 250 } };
        },
        inputTimeoutMs: 5000,
      },
    );
    assert.equal(text(result), 'Budget set to 250 kWh');
    assert.deepEqual(asked, ['Monthly budget in kWh?']);
    const update = sentSince(from).find((r) => r.method === 'tasks/update');
    assert.deepEqual(update?.params?.inputResponses, { budget: { action: 'accept', content: { limit: 250 } } });
  });

  it('a caller that cannot answer declines; a failed task ends the call with its error; a quick tool never becomes a task', async () => {
    assert.equal(text(await session.callTool('ask_budget', {})), 'No budget set');
    await assert.rejects(session.callTool('broken_job', {}), (err: Error & { code?: string }) => {
      assert.equal(err.code, 'TASK_FAILED');
      assert.match(err.message, /the meter database is offline \(-32603\)/);
      return true;
    });
    assert.equal(text(await session.callTool('quick', {})), 'quick ran without a task');
  });

  it('cancelling sends tasks/cancel and ends the call as cancelled', async () => {
    const controller = new AbortController();
    const from = proxy.requests.length;
    const call = session.callTool('forever', {}, { signal: controller.signal, onTaskUpdate: () => controller.abort(new Error('stop')) });
    await assert.rejects(call, (err: Error & { code?: string }) => err.code === 'CANCELLED');
    const cancel = sentSince(from).find((r) => r.method === 'tasks/cancel');
    assert.ok(
      cancel,
      sentSince(from)
        .map((r) => r.method)
        .join(', '),
    );
    assert.equal(peer.tasks.get(cancel.params?.taskId as string)?.status, 'cancelled');
  });
});

describe('mcp-call-tool: a task on 2026-07-28 through the real runtime', function () {
  this.timeout(30_000);
  let peer: TasksExtensionServer;
  before(async () => {
    await startRuntime();
    peer = await startTasksExtensionServer();
  });
  after(async () => {
    await stopRuntime();
    await peer?.close();
  });
  afterEach(() => helper.unload());

  const deploy = (tool: string) =>
    load([
      { id: 'srv', type: 'mcp-server', transport: 'http', url: peer.url, protocolVersion: '2026-07-28', timeout: 10 },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool, inputTimeout: 10, wires: [['out'], ['side']] },
      { id: 'out', type: 'helper' },
      { id: 'side', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ]);

  it('each status leaves output 2 as a task message, the result output 1; the question is answered with msg.input', async () => {
    await deploy('year_report');
    const side: any[] = [];
    helper.getNode('side').on('input', (m: any) => side.push(m));
    const result = nextMessage('out');
    send('call', { payload: {} });
    assert.equal((await result).payload, 'Year: 3600 kWh');
    const statuses = side.filter((m) => m.topic === 'task').map((m) => m.payload.status);
    assert.deepEqual(statuses, ['working', 'working', 'working', 'completed']);

    await deploy('ask_budget');
    const asked = nextMessageWithTopic('side', 'input');
    const answered = nextMessage('out');
    send('call', { payload: {} });
    const request = await asked;
    assert.equal(request.payload.message, 'Monthly budget in kWh?');
    send('call', { input: { id: request.input.id, action: 'accept', content: { limit: 90 } } });
    assert.equal((await answered).payload, 'Budget set to 90 kWh');
  });

  it('msg.cancel with the task id cancels it on the server; the call goes to Catch', async () => {
    await deploy('forever');
    const firstTask = nextMessageWithTopic('side', 'task');
    const caught = nextMessage('caught');
    send('call', { payload: {} });
    const { payload } = await firstTask;
    send('call', { cancel: payload.taskId });
    assert.equal((await caught).error.code, 'CANCELLED');
    await until('the server cancelled the task', () => peer.tasks.get(payload.taskId)?.status === 'cancelled');
  });
});
