// examples/todo-assistant.json end to end: a real Node-RED (started as `npm start` starts it) runs
// the flow, which starts the todo MCP server over stdio (embedded SQLite in a temp dir) and asks the fake
// Gemini (the real @google/genai client through GEMINI_BASE_URL) to create, list, complete and
// delete a todo. The todo server really stores and changes the rows; the test reads them back.
import assert from 'node:assert/strict';
import { skipBecause } from '../helpers/skip';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeGemini, type FakeGemini, type RecordedRequest } from '../peers/fake-gemini';
import { readExample, startNodeRed, assertCleanDeploy, type NodeRedProcess } from '../helpers/node-red';
import { emptyTodoFolder } from '../todo/todo-server-process';

const { ROOT } = require('../../scripts/node-red-home.cjs');
const TODO_SERVER = join(ROOT, 'dist', 'servers', 'todo', 'main.js');

/** The functionResponse.response objects of the latest user turn of a request. */
function lastResponses(request: RecordedRequest): any[] {
  const contents = request.body.contents as any[];
  return contents[contents.length - 1].parts.map((p: any) => p.functionResponse?.response);
}

describe('examples: todo-assistant.json', function () {
  this.timeout(180_000);
  let gemini: FakeGemini;
  let nr: NodeRedProcess;
  let dataDir: string;
  const flow = readExample('todo-assistant');

  before(async function () {
    if (!existsSync(TODO_SERVER)) skipBecause(this, 'the todo example', `${TODO_SERVER} is missing (npm test builds it; run npm run build)`);
    dataDir = emptyTodoFolder('todo-example-');
    gemini = await startFakeGemini();
    nr = await startNodeRed({
      env: { GEMINI_API_KEY: gemini.apiKey, GEMINI_BASE_URL: gemini.url, TODO_DATA_DIR: dataDir, DATABASE_URL: '', TODO_SERVER },
    });
    await nr.deploy(flow);
  });
  after(async () => {
    await nr?.stop();
    await gemini?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('deploys without errors or unknown node types', async () => {
    await assertCleanDeploy(nr, flow);
  });

  it('creates, lists, completes and deletes a todo through the agent in one prompt', async () => {
    let todoId = '';
    gemini.script(
      reply.call('create_todo', { title: 'water the plants', priority: 'high', tags: ['home'] }),
      (req) => {
        const created = lastResponses(req)[0].output;
        assert.equal(created.success, true, JSON.stringify(created));
        todoId = created.todo_id;
        return reply.call('list_todos', { status: 'all' });
      },
      (req) => {
        const listed = lastResponses(req)[0].output;
        assert.ok(
          listed.todos.some((t: any) => t.todo_id === todoId && t.title === 'water the plants'),
          JSON.stringify(listed),
        );
        return reply.call('update_todo', { todo_id: todoId, status: 'completed' });
      },
      () => reply.call('delete_todo', { todo_id: todoId, confirmation: true }),
      () => reply.text('Created "water the plants", listed it, completed it and deleted it.'),
    );
    await nr.inject('ta-inject-all');
    const answer = await nr.debug.next('ta-debug-answer', undefined, 90_000);
    assert.equal(answer.value, 'Created "water the plants", listed it, completed it and deleted it.');
    const trace = await nr.debug.next('ta-debug-trace');
    const calls = trace.value.steps.flatMap((s: any) => s.calls);
    assert.deepEqual(
      calls.map((c: any) => [c.name, c.isError]),
      [
        ['create_todo', false],
        ['list_todos', false],
        ['update_todo', false],
        ['delete_todo', false],
      ],
    );
    assert.deepEqual(calls[2].result.updated_fields, ['status']);
    assert.equal(calls[3].result.todo_id, todoId);
    assert.equal(gemini.pending(), 0);

    // The first request offered exactly the four todo tools, with the flow's system instruction.
    const first = gemini.requests[gemini.requests.length - 5];
    const declared = first.body.tools.flatMap((t: any) => t.functionDeclarations ?? []).map((d: any) => d.name);
    assert.deepEqual([...declared].sort(), ['create_todo', 'delete_todo', 'list_todos', 'update_todo']);
    assert.match(JSON.stringify(first.body.systemInstruction), /todo assistant/);
    assert.deepEqual(nr.debug.errors(), []);
    assert.equal(nr.debug.messages.filter((m) => m.id === 'ta-debug-missing').length, 0, 'no tool reported missing');
  });

  it('the todo really is gone: a follow-up prompt lists nothing (conversation kept per topic)', async () => {
    nr.debug.clear();
    gemini.script(reply.call('list_todos', { status: 'all' }), (req) => {
      const listed = lastResponses(req)[0].output;
      assert.equal(listed.count, 0, JSON.stringify(listed));
      return reply.text('Your list is empty.');
    });
    await nr.inject('ta-inject-list');
    const answer = await nr.debug.next('ta-debug-answer', undefined, 60_000);
    assert.equal(answer.value, 'Your list is empty.');
    assert.equal(gemini.pending(), 0);
    // The history of the first prompt came along (memory "context", topic "todo-demo").
    const followUp = gemini.requests[gemini.requests.length - 2];
    assert.equal(followUp.body.contents[0].parts[0].text, 'Create a todo "water the plants", show me my list, mark it completed, then delete it.');
  });

  it('degrades gracefully when an expected tool is missing: warns, lists it, and the agent still runs', async () => {
    const variant = flow.map((n) => (n.id === 'ta-list' ? { ...n, expected: `${n.expected}\nshare_todo` } : n));
    await nr.deploy(variant);
    nr.debug.clear();
    gemini.script(reply.text('I can still manage your todos, but I cannot share them.'));
    await nr.inject('ta-inject-list');
    const missing = await nr.debug.next('ta-debug-missing', undefined, 60_000);
    assert.deepEqual(missing.value, ['share_todo']);
    const answer = await nr.debug.next('ta-debug-answer');
    assert.match(answer.value, /cannot share/);
    const warning = nr.debug.messages.find((m) => m.level === 30 && JSON.stringify(m.value).includes('share_todo'));
    assert.ok(warning, 'node.warn names the missing tool in the sidebar');
  });
});
