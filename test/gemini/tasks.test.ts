// gemini-agent and a long tool: when Gemini calls a task-only tool of server-everything (the MCP
// reference server, v1 SDK task runtime, protocol 2025-11-25), the agent's session calls it as a
// task, waits for the task's end, and gives Gemini the task's result; the call shows in the trace.
// On 2026-07-28 (the tasks extension, a server built from its text) each status leaves output 2 and
// msg.cancel cancels the task on the server, while Gemini reads that the tool was cancelled.
import assert from 'node:assert/strict';
import { everythingStdio } from '../peers/everything';
import { reply } from '../peers/fake-gemini';
import { collectSide, helper, loadAgent, run, type FakeGemini, useAgentPeers } from './harness';
import { startTasksExtensionServer, type TasksExtensionServer } from '../peers/tasks-extension-server';
import { waitFor } from '../helpers/wait';

describe('gemini-agent: a task-only tool (server-everything, protocol 2025-11-25)', function () {
  this.timeout(60000);
  let fake: FakeGemini;
  const peers = useAgentPeers({ homeAssistant: false });
  beforeEach(() => (fake = peers.fake));

  it("Gemini's call runs as a task and the report goes back to Gemini", async () => {
    await loadAgent({ fake, servers: [{ id: 'ev', name: 'everything', transport: 'stdio', command: everythingStdio.command, args: everythingStdio.args }] });
    fake.script(reply.call('simulate_research_query', { topic: 'heat pumps' }), reply.text('The report is ready.'));
    const { answer, caught } = await run({ payload: 'research heat pumps' });
    assert.equal(caught, undefined, caught?.error?.message);
    assert.equal(answer.payload, 'The report is ready.');
    const call = answer.gemini.steps[0].calls[0];
    assert.equal(call.tool, 'simulate-research-query');
    assert.equal(call.isError, false);
    // Called the ordinary way, the server refuses a task-only tool; the report proves the task ran.
    assert.match(JSON.stringify(fake.requests[1].body.contents.at(-1)), /Research Report: heat pumps/);
  });
});

describe('gemini-agent: tools the server runs as tasks (protocol 2026-07-28, the tasks extension)', function () {
  this.timeout(30000);
  let fake: FakeGemini;
  let peer: TasksExtensionServer;
  const peers = useAgentPeers({ homeAssistant: false });
  beforeEach(() => (fake = peers.fake));
  before(async () => (peer = await startTasksExtensionServer()));
  after(() => peer?.close());
  const load = () => loadAgent({ fake, servers: [{ id: 'tp', name: 'tasks', transport: 'http', url: peer.url, protocolVersion: '2026-07-28' }] });

  it('each status of the task leaves output 2; the result goes back to Gemini', async () => {
    await load();
    const side = collectSide();
    fake.script(reply.call('year_report', {}), reply.text('3600 kWh this year.'));
    const { answer, caught } = await run({ payload: 'how much this year?' });
    assert.equal(caught, undefined, caught?.error?.message);
    assert.equal(answer.payload, '3600 kWh this year.');
    const tasks = side.filter((m) => m.topic === 'task');
    assert.deepEqual(
      tasks.map((m) => m.payload.status),
      ['working', 'working', 'working', 'completed'],
    );
    assert.deepEqual(tasks[0].mcp, { server: 'tasks', tool: 'year_report' });
    assert.match(JSON.stringify(fake.requests[1].body.contents.at(-1)), /Year: 3600 kWh/);
  });

  it('msg.cancel with the task id cancels it on the server, and Gemini reads that the tool was cancelled', async () => {
    await load();
    const side = collectSide();
    fake.script(reply.call('forever', {}), reply.text('It was cancelled.'));
    const outcome = run({ payload: 'run forever' });
    const first = await waitFor(() => side.find((m) => m.topic === 'task'), 'the first task status');
    helper.getNode('agent').receive({ cancel: first.payload.taskId });
    const { answer, caught } = await outcome;
    assert.equal(caught, undefined, caught?.error?.message);
    assert.equal(answer.payload, 'It was cancelled.');
    assert.deepEqual(side.find((m) => m.topic === 'cancel')?.payload, { cancelled: 1 });
    assert.equal(peer.tasks.get(first.payload.taskId)?.status, 'cancelled');
    assert.match(JSON.stringify(fake.requests[1].body.contents.at(-1)), /cancelled/);
  });
});
