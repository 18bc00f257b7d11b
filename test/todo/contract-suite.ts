// The todo server's contract (docs/todo-server.md; its four schemas in contract-tool-schemas.json), as one suite run against every pairing of
// transport (stdio, Streamable HTTP) and storage (PGlite directory, PostgreSQL server). Every todo
// it creates carries this run's own tag and every listing filters on it, so the suite also runs
// against a database that already holds other rows.
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/client';
import contract from './contract-tool-schemas.json';
import { outcomeOf, type RunningTodoServer } from './todo-server-process';

export interface ContractTarget {
  /** Starts (or starts again, on the same storage) the server and connects a client. */
  start(): Promise<RunningTodoServer>;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function localStamp(date: Date, time = '12:00:00'): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${time}`;
}

export function defineContractSuite(target: ContractTarget): void {
  const run = `run_${randomBytes(4).toString('hex')}`;
  let server: RunningTodoServer;

  async function call(name: string, args: Record<string, unknown>) {
    const result = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
    return { result, outcome: outcomeOf(result) };
  }
  async function ok(name: string, args: Record<string, unknown>) {
    const { result, outcome } = await call(name, args);
    assert.equal(outcome.success, true, `${name} ${JSON.stringify(args)} failed: ${JSON.stringify(outcome)}`);
    assert.equal(result.isError, false);
    return outcome;
  }
  async function fails(name: string, args: Record<string, unknown>, errorType: string) {
    const { result, outcome } = await call(name, args);
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} should fail: ${JSON.stringify(outcome)}`);
    assert.deepEqual(Object.keys(outcome).sort(), ['error_type', 'message', 'recoverable', 'success']);
    assert.equal(outcome.success, false);
    assert.equal(outcome.error_type, errorType, JSON.stringify(outcome));
    assert.equal(typeof outcome.message, 'string');
    return outcome;
  }
  async function listTagged(tags: string[], extra: Record<string, unknown> = {}) {
    return ok('list_todos', { tags: [run, ...tags], ...extra });
  }
  async function create(args: Record<string, unknown>) {
    const tags = (args.tags as string[] | undefined) ?? [];
    return ok('create_todo', { ...args, tags: [run, ...tags] });
  }

  // Generous: PGlite compiles PostgreSQL's WebAssembly at start-up, slow on a busy 2-core machine.
  const START_TIMEOUT = 180000;
  async function startAndWaitForDatabase() {
    server = await target.start();
    await server.client.callTool({ name: 'list_todos', arguments: { tags: [run] } });
  }

  before(async function () {
    this.timeout(START_TIMEOUT);
    await startAndWaitForDatabase();
  });
  after(async function () {
    this.timeout(30000);
    await server?.stop();
  });

  it('publishes exactly the four tools of the contract, schemas verbatim', async () => {
    const { tools } = await server.client.listTools();
    assert.deepEqual(
      tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })),
      contract.tools,
    );
  });

  it('create_todo answers the success shape and stores the defaults', async () => {
    const created = await create({ title: 'buy eggs' });
    assert.deepEqual(Object.keys(created).sort(), ['message', 'success', 'todo_id']);
    assert.match(created.todo_id, /^todo_[0-9a-f]{12}$/);
    assert.equal(created.message, 'Todo created successfully');
    const listed = await listTagged([]);
    const todo = listed.todos.find((t: { todo_id: string }) => t.todo_id === created.todo_id);
    assert.deepEqual(
      { ...todo, created_at: undefined, updated_at: undefined },
      {
        todo_id: created.todo_id,
        title: 'buy eggs',
        description: null,
        due_date: null,
        priority: 'medium',
        status: 'pending',
        tags: [run],
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.match(todo.created_at, ISO_UTC);
    assert.equal(todo.updated_at, todo.created_at);
    await ok('delete_todo', { todo_id: created.todo_id, confirmation: true });
  });

  it('create_todo stores every field; due dates keep their instant (offset or server-local)', async () => {
    const withOffset = await create({
      title: 'call the plumber',
      description: 'about the kitchen sink',
      due_date: '2030-01-02T03:04:05+02:00',
      priority: 'high',
      tags: ['home', 'urgent'],
    });
    const naive = await create({ title: 'naive time', due_date: '2030-01-02T03:04:05', tags: ['naive'] });
    const [todo] = (await listTagged(['home'])).todos;
    assert.equal(todo.todo_id, withOffset.todo_id);
    assert.equal(todo.description, 'about the kitchen sink');
    assert.equal(todo.due_date, '2030-01-02T01:04:05.000Z');
    assert.equal(todo.priority, 'high');
    assert.deepEqual(todo.tags, [run, 'home', 'urgent']);
    const [naiveTodo] = (await listTagged(['naive'])).todos;
    assert.equal(naiveTodo.todo_id, naive.todo_id);
    assert.equal(naiveTodo.due_date, new Date('2030-01-02T03:04:05').toISOString());
  });

  it('create_todo enforces every limit of its schema and stores nothing when it refuses', async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ tags: [run, 'refused'] }, 'title'],
      [{ title: '', tags: [run, 'refused'] }, 'title'],
      [{ title: 'x'.repeat(201), tags: [run, 'refused'] }, 'title'],
      [{ title: 42, tags: [run, 'refused'] }, 'title'],
      [{ title: 'ok', description: 'x'.repeat(1001), tags: [run, 'refused'] }, 'description'],
      [{ title: 'ok', due_date: 'tomorrow', tags: [run, 'refused'] }, 'due_date'],
      [{ title: 'ok', due_date: '2025-02-30T10:00:00Z', tags: [run, 'refused'] }, 'due_date'],
      [{ title: 'ok', priority: 'urgent', tags: [run, 'refused'] }, 'priority'],
      [{ title: 'ok', tags: 'home' }, 'tags'],
      [{ title: 'ok', tags: [run, 'refused', 3] }, 'tags'],
    ];
    for (const [args, field] of refused) {
      const outcome = await fails('create_todo', args, 'invalid_arguments');
      assert.equal(outcome.recoverable, true);
      assert.match(outcome.message, new RegExp(field), `${JSON.stringify(args)} → ${outcome.message}`);
    }
    assert.equal((await listTagged(['refused'], { status: 'all' })).count, 0);
    // The limits themselves are allowed.
    await create({ title: 'x'.repeat(200), description: 'y'.repeat(1000), tags: ['limits'] });
    const [atLimit] = (await listTagged(['limits'])).todos;
    assert.equal(atLimit.title.length, 200);
    assert.equal(atLimit.description.length, 1000);
  });

  it('list_todos filters by status (default pending), priority, tags (AND) and due date', async () => {
    const now = new Date();
    const inEightDays = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 8);
    const today = await create({ title: 'today', due_date: localStamp(now), priority: 'low', tags: ['f', 'a'] });
    const later = await create({ title: 'later', due_date: localStamp(inEightDays), priority: 'high', tags: ['f', 'a', 'b'] });
    const fixed = await create({ title: 'fixed day', due_date: '2031-05-17T10:00:00', tags: ['f'] });
    const done = await create({ title: 'done', tags: ['f', 'b'] });
    await ok('update_todo', { todo_id: done.todo_id, status: 'completed' });
    const ids = (o: Record<string, any>) => (o.todos as Array<{ todo_id: string }>).map((t) => t.todo_id).sort();
    const sorted = (...xs: Array<Record<string, any>>) => xs.map((x) => x.todo_id as string).sort();

    assert.deepEqual(ids(await listTagged(['f'])), sorted(today, later, fixed));
    assert.deepEqual(ids(await listTagged(['f'], { status: 'pending' })), sorted(today, later, fixed));
    assert.deepEqual(ids(await listTagged(['f'], { status: 'completed' })), sorted(done));
    assert.deepEqual(ids(await listTagged(['f'], { status: 'all' })), sorted(today, later, fixed, done));
    assert.deepEqual(ids(await listTagged(['f'], { priority: 'high' })), sorted(later));
    assert.deepEqual(ids(await listTagged(['f', 'a', 'b'], { status: 'all' })), sorted(later));
    assert.deepEqual(ids(await listTagged(['f', 'b'], { status: 'all' })), sorted(later, done));
    assert.deepEqual(ids(await listTagged(['f'], { due_date_filter: 'today' })), sorted(today));
    assert.deepEqual(ids(await listTagged(['f'], { due_date_filter: 'this_week' })), sorted(today));
    assert.deepEqual(ids(await listTagged(['f'], { due_date_filter: '2031-05-17' })), sorted(fixed));
    assert.deepEqual(ids(await listTagged(['f'], { due_date_filter: '2031-05-18' })), []);
    const listed = await listTagged(['f']);
    assert.deepEqual(Object.keys(listed).sort(), ['count', 'success', 'todos']);
    assert.equal(listed.count, listed.todos.length);
  });

  it('list_todos returns 50 by default, honours limit up to 100 and refuses past it', async function () {
    this.timeout(120000);
    for (let i = 0; i < 51; i++) await create({ title: `bulk ${i}`, tags: ['bulk'] });
    assert.equal((await listTagged(['bulk'])).count, 50);
    assert.equal((await listTagged(['bulk'], { limit: 100 })).count, 51);
    assert.equal((await listTagged(['bulk'], { limit: 1 })).count, 1);
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ limit: 101 }, 'limit'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ limit: '10' }, 'limit'],
      [{ status: 'done' }, 'status'],
      [{ priority: 'urgent' }, 'priority'],
      [{ due_date_filter: 'tomorrow' }, 'due_date_filter'],
      [{ due_date_filter: '2025-13-01' }, 'due_date_filter'],
      [{ tags: 'bulk' }, 'tags'],
    ];
    for (const [args, field] of refused) {
      const outcome = await fails('list_todos', args, 'invalid_arguments');
      assert.equal(outcome.recoverable, true);
      assert.match(outcome.message, new RegExp(field), `${JSON.stringify(args)} → ${outcome.message}`);
    }
  });

  it('update_todo changes the given fields and names them in updated_fields', async () => {
    const { todo_id } = await create({ title: 'draft', tags: ['upd'] });
    const [before] = (await listTagged(['upd'])).todos;
    // Timestamps are shown to the millisecond: let one pass so "updated_at moved" is observable.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = await ok('update_todo', { todo_id, status: 'completed' });
    assert.deepEqual(updated, { success: true, todo_id, message: 'Todo updated successfully', updated_fields: ['status'] });
    const all = await ok('update_todo', {
      todo_id,
      tags: [run, 'upd', 'edited'],
      priority: 'low',
      title: 'final',
      description: 'now described',
      due_date: '2032-03-04T05:06:07Z',
      status: 'pending',
    });
    assert.deepEqual(all.updated_fields, ['title', 'description', 'due_date', 'priority', 'status', 'tags']);
    const [after] = (await listTagged(['upd', 'edited'])).todos;
    assert.deepEqual(
      { ...after, updated_at: undefined },
      {
        todo_id,
        title: 'final',
        description: 'now described',
        due_date: '2032-03-04T05:06:07.000Z',
        priority: 'low',
        status: 'pending',
        tags: [run, 'upd', 'edited'],
        created_at: before.created_at,
        updated_at: undefined,
      },
    );
    assert.ok(after.updated_at > before.updated_at, `${after.updated_at} after ${before.updated_at}`);
  });

  it('update_todo refuses invalid arguments, changes nothing, and reports an unknown id', async () => {
    const { todo_id } = await create({ title: 'keep me', tags: ['upd-refused'] });
    const [before] = (await listTagged(['upd-refused'])).todos;
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ title: 'x' }, 'todo_id'],
      [{ todo_id: 7, title: 'x' }, 'todo_id'],
      [{ todo_id, title: '' }, 'title'],
      [{ todo_id, title: 'x'.repeat(201) }, 'title'],
      [{ todo_id, description: 'x'.repeat(1001) }, 'description'],
      [{ todo_id, status: 'all' }, 'status'],
      [{ todo_id, priority: 'urgent' }, 'priority'],
      [{ todo_id, due_date: 'soon' }, 'due_date'],
      [{ todo_id, tags: [1] }, 'tags'],
      [{ todo_id }, 'at least one'],
    ];
    for (const [args, field] of refused) {
      const outcome = await fails('update_todo', args, 'invalid_arguments');
      assert.equal(outcome.recoverable, true);
      assert.match(outcome.message, new RegExp(field), `${JSON.stringify(args)} → ${outcome.message}`);
    }
    assert.deepEqual((await listTagged(['upd-refused'])).todos, [before]);
    const missing = await fails('update_todo', { todo_id: 'todo_invalid', title: 'x' }, 'todo_not_found');
    assert.deepEqual(missing, {
      success: false,
      error_type: 'todo_not_found',
      message: "Todo with ID 'todo_invalid' does not exist",
      recoverable: false,
    });
  });

  it('delete_todo needs confirmation: true, then deletes; a second delete is todo_not_found', async () => {
    const { todo_id } = await create({ title: 'to delete', tags: ['del'] });
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ todo_id }, 'confirmation'],
      [{ todo_id, confirmation: false }, 'confirmation'],
      [{ todo_id, confirmation: 'true' }, 'confirmation'],
      [{ confirmation: true }, 'todo_id'],
    ];
    for (const [args, field] of refused) {
      const outcome = await fails('delete_todo', args, 'invalid_arguments');
      assert.match(outcome.message, new RegExp(field), `${JSON.stringify(args)} → ${outcome.message}`);
    }
    assert.equal((await listTagged(['del'])).count, 1);
    const deleted = await ok('delete_todo', { todo_id, confirmation: true });
    assert.deepEqual(deleted, { success: true, todo_id, message: 'Todo deleted successfully' });
    assert.equal((await listTagged(['del'], { status: 'all' })).count, 0);
    const again = await fails('delete_todo', { todo_id, confirmation: true }, 'todo_not_found');
    assert.equal(again.recoverable, false);
    assert.equal(again.message, `Todo with ID '${todo_id}' does not exist`);
  });

  it('serves calls made in parallel (an agent may issue several tool calls at once)', async () => {
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => create({ title: `parallel ${i}`, tags: ['parallel'] })));
    assert.equal(new Set(created.map((c) => c.todo_id)).size, 20);
    const [listed, completed] = await Promise.all([
      listTagged(['parallel'], { status: 'all', limit: 100 }),
      Promise.all(created.slice(0, 5).map((c) => ok('update_todo', { todo_id: c.todo_id, status: 'completed' }))),
    ]);
    assert.equal(listed.count, 20);
    assert.equal(completed.length, 5);
    assert.equal((await listTagged(['parallel'], { status: 'completed' })).count, 5);
  });

  it('answers an unknown tool with a protocol error, not a contract result', async () => {
    await assert.rejects(server.client.callTool({ name: 'drop_all_todos', arguments: {} }), /Unknown tool: drop_all_todos/);
  });

  it('keeps todos across a restart of the server process', async function () {
    this.timeout(START_TIMEOUT);
    const { todo_id } = await create({ title: 'survive a restart', tags: ['restart'] });
    await ok('update_todo', { todo_id, status: 'completed' });
    await server.stop();
    await startAndWaitForDatabase();
    const [todo] = (await listTagged(['restart'], { status: 'all' })).todos;
    assert.equal(todo?.todo_id, todo_id);
    assert.equal(todo.title, 'survive a restart');
    assert.equal(todo.status, 'completed');
  });
}
