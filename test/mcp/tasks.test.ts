// Long tools as tasks, against the MCP reference server (server-everything, whose
// `simulate-research-query` is a task-only tool built on the v1 SDK's task runtime): the session
// calls it as a task over stdio and Streamable HTTP, reports each status change, answers the
// server's question asked in the middle of the task, and cancels with tasks/cancel. A recording
// proxy in front of the HTTP server shows what went over the wire.
import assert from 'node:assert/strict';
import { McpSession } from '../../src/mcp/session';
import type { TaskUpdate } from '../../src/mcp/call/task-call';
import type { McpServerSettings } from '../../src/mcp/settings/settings';
import { everythingStdio, startEverything, type EverythingServer } from '../peers/everything';
import { startRecordingProxy, type RecordingProxy } from '../peers/recording-proxy';
import { helper, load, nextMessage, nextMessageWithTopic, send, startRuntime, stopRuntime, until } from '../helpers/runtime';

const TOOL = 'simulate-research-query';
const text = (r: { content?: unknown }) => ((r.content as Array<{ text?: string }>) ?? []).map((c) => c.text ?? '').join('');

describe('tools as tasks (server-everything, protocol 2025-11-25)', function () {
  this.timeout(60_000);
  let ev: EverythingServer;
  let proxy: RecordingProxy;
  before(async () => {
    ev = await startEverything('streamableHttp');
    proxy = await startRecordingProxy(ev.url);
  });
  after(async () => {
    await proxy?.close();
    await ev?.stop();
  });

  const transports: Array<[string, () => McpServerSettings]> = [
    ['stdio', () => ({ id: 's', name: 'everything', transport: 'stdio', ...everythingStdio, timeoutMs: 20_000, protocolVersion: '2025-11-25' })],
    ['Streamable HTTP', () => ({ id: 'h', name: 'everything', transport: 'http', url: proxy.url, timeoutMs: 20_000, protocolVersion: '2025-11-25' })],
  ];

  for (const [kind, settings] of transports) {
    describe(kind, () => {
      let session: McpSession;
      beforeEach(async () => {
        session = new McpSession(settings());
        const { tools } = await session.listTools();
        assert.equal((tools.find((t) => t.name === TOOL) as { execution?: { taskSupport?: string } })?.execution?.taskSupport, 'required');
      });
      afterEach(() => session.close());

      it('a task-only tool runs as a task: the stages seen are reported in order, the report is the result', async () => {
        const updates: TaskUpdate[] = [];
        const from = proxy.requests.length;
        const result = await session.callTool(TOOL, { topic: 'heat pumps' }, { onTaskUpdate: (u) => updates.push(u) });
        assert.match(text(result), /# Research Report: heat pumps/);
        assert.ok(updates.length >= 3, JSON.stringify(updates));
        assert.ok(new Set(updates.map((u) => u.taskId)).size === 1, 'one task');
        assert.equal(updates[0].status, 'working');
        // The client polls tasks/get at the server's suggested interval (1 s), and each of the
        // server's four stages lasts 1 s: a poll that comes late on a busy machine can miss one.
        // What is seen must be the server's stages, in its order, more than one of them.
        const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];
        const seen = updates.filter((u) => u.status === 'working').map((u) => STAGES.findIndex((s) => (u.statusMessage ?? '').startsWith(s)));
        assert.ok(!seen.includes(-1), JSON.stringify(updates));
        assert.deepEqual(
          seen,
          [...seen].sort((a, b) => a - b),
          JSON.stringify(updates),
        );
        assert.ok(new Set(seen).size >= 2, JSON.stringify(updates));
        assert.equal(updates.at(-1)!.status, 'completed');
        if (kind !== 'stdio') {
          const sent = proxy.requests.slice(from).map((r) => r.method);
          assert.ok(sent.includes('tasks/get') && sent.includes('tasks/result'), sent.join(', '));
          const call = proxy.requests.slice(from).find((r) => r.method === 'tools/call');
          assert.equal(typeof (call?.params?.task as { ttl?: unknown })?.ttl, 'number', 'the call asked for a task with a ttl');
        }
      });

      it("the server's question in the middle of the task goes to the caller, and the answer shapes the result", async () => {
        const updates: TaskUpdate[] = [];
        const asked: string[] = [];
        const result = await session.callTool(
          TOOL,
          { topic: 'python', ambiguous: true },
          {
            onTaskUpdate: (u) => updates.push(u),
            onInputRequest: async (request) => {
              asked.push(request.message);
              const options = ((request.schema?.properties as Record<string, { oneOf?: Array<{ const: string }> }>)?.interpretation?.oneOf ?? []).map(
                (o) => o.const,
              );
              return { action: 'accept', content: { interpretation: options[0] } };
            },
            inputTimeoutMs: 10_000,
          },
        );
        assert.equal(asked.length, 1);
        assert.match(asked[0], /multiple interpretations/);
        assert.ok(
          updates.some((u) => u.status === 'input_required'),
          JSON.stringify(updates),
        );
        assert.match(text(result), /Clarification\*\*: (?!User)/, text(result).slice(0, 300));
      });

      it('cancelling a running task sends tasks/cancel and ends the call as cancelled', async () => {
        const controller = new AbortController();
        const from = proxy.requests.length;
        const call = session.callTool(TOOL, { topic: 'solar' }, { signal: controller.signal, onTaskUpdate: () => controller.abort(new Error('stop')) });
        await assert.rejects(call, (err: Error & { code?: string }) => {
          assert.equal(err.code, 'CANCELLED', err.message);
          return true;
        });
        if (kind !== 'stdio') {
          const sent = proxy.requests.slice(from);
          const cancel = sent.find((r) => r.method === 'tasks/cancel');
          assert.ok(cancel, sent.map((r) => r.method).join(', '));
          assert.equal(typeof cancel.params?.taskId, 'string');
          assert.ok(!sent.some((r) => r.method === 'tasks/result'), 'no result was fetched');
        }
      });
    });
  }
});

describe('mcp-call-tool: a task-only tool through the real runtime (server-everything over HTTP)', function () {
  this.timeout(60_000);
  let ev: EverythingServer;
  let proxy: RecordingProxy;
  before(async () => {
    await startRuntime();
    ev = await startEverything('streamableHttp');
    proxy = await startRecordingProxy(ev.url);
  });
  after(async () => {
    await stopRuntime();
    await proxy?.close();
    await ev?.stop();
  });
  afterEach(() => helper.unload());

  const deploy = () =>
    load([
      { id: 'srv', type: 'mcp-server', transport: 'http', url: proxy.url, protocolVersion: '2025-11-25', timeout: 20 },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: TOOL, inputTimeout: 20, wires: [['out'], ['side']] },
      { id: 'out', type: 'helper' },
      { id: 'side', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ]);

  it('each status change leaves output 2 as a task message; the report leaves output 1', async () => {
    await deploy();
    const side: any[] = [];
    helper.getNode('side').on('input', (m: any) => side.push(m));
    const result = nextMessage('out');
    send('call', { payload: { topic: 'batteries' } });
    const msg = await result;
    assert.match(String(msg.payload), /# Research Report: batteries/);
    const tasks = side.filter((m) => m.topic === 'task');
    assert.ok(tasks.length >= 3, JSON.stringify(side));
    assert.deepEqual(Object.keys(tasks[0].payload).sort(), ['status', 'statusMessage', 'taskId']);
    assert.equal(tasks.at(-1).payload.status, 'completed');
    assert.equal(tasks[0].mcp.tool, TOOL);
  });

  it('the question asked in the middle of the task is answered with msg.input', async () => {
    await deploy();
    const asked = nextMessageWithTopic('side', 'input');
    const result = nextMessage('out');
    send('call', { payload: { topic: 'python', ambiguous: true } });
    const request = await asked;
    const choice = request.payload.schema.properties.interpretation.oneOf[1].const;
    send('call', { input: { id: request.input.id, action: 'accept', content: { interpretation: choice } } });
    assert.match(String((await result).payload), new RegExp(`Clarification\\*\\*: ${choice}`));
  });

  it('msg.cancel with the task id cancels it on the server; the call goes to Catch, the cancel message to output 2', async () => {
    await deploy();
    const firstTask = nextMessageWithTopic('side', 'task');
    const caught = nextMessage('caught');
    const from = proxy.requests.length;
    send('call', { payload: { topic: 'wind' }, _id: 'the-call' });
    const { payload } = await firstTask;
    const cancelled = nextMessageWithTopic('side', 'cancel');
    send('call', { cancel: payload.taskId });
    assert.deepEqual((await cancelled).payload, { cancelled: 1 });
    const error = await caught;
    assert.equal(error.error.code, 'CANCELLED', error.error.message);
    assert.deepEqual(error.payload, { topic: 'wind' }, 'the cancelled call is the one that reached Catch');
    await until('tasks/cancel sent for the task', () =>
      proxy.requests.slice(from).some((r) => r.method === 'tasks/cancel' && r.params?.taskId === payload.taskId),
    );
  });
});
