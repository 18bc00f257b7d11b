// The todo contract over stdio and over Streamable HTTP with the embedded database (what runs when
// no DATABASE_URL is set: SQLite in TODO_DATA_DIR), its failure on an unusable folder, and the one
// move of a folder an earlier version kept in PGlite: its todos come along, its files stay.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { defineContractSuite } from './contract-suite';
import { emptyTodoFolder, outcomeOf, REPO_ROOT, startTodoServer, TODO_MAIN_DIST, type TransportKind } from './todo-server-process';

for (const kind of ['stdio', 'http'] as TransportKind[]) {
  describe(`todo server contract: ${kind} + embedded SQLite`, function () {
    let dataDir: string | undefined;
    after(() => dataDir && rmSync(dataDir, { recursive: true, force: true }));
    defineContractSuite({ start: async () => startTodoServer(kind, { TODO_DATA_DIR: (dataDir ??= emptyTodoFolder('todo-sqlite-')) }) });
  });
}

describe('todo server: embedded database unavailable', function () {
  this.timeout(180000);
  const dir = mkdtempSync(join(tmpdir(), 'todo-sqlite-broken-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers database_error (recoverable) from every tool when the data directory is unusable', async () => {
    // A regular file where the database directory should be: nothing can be created in it.
    const notADir = join(dir, 'not-a-directory');
    writeFileSync(notADir, 'this is a file');
    const server = await startTodoServer('stdio', { TODO_DATA_DIR: notADir });
    try {
      const calls: Array<[string, Record<string, unknown>]> = [
        ['create_todo', { title: 'x' }],
        ['list_todos', {}],
        ['update_todo', { todo_id: 'todo_000000000000', title: 'y' }],
        ['delete_todo', { todo_id: 'todo_000000000000', confirmation: true }],
      ];
      for (const [name, args] of calls) {
        const result = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
        const outcome = outcomeOf(result);
        assert.equal(result.isError, true);
        assert.equal(outcome.success, false);
        assert.equal(outcome.error_type, 'database_error', `${name}: ${JSON.stringify(outcome)}`);
        assert.equal(outcome.recoverable, true);
        assert.match(outcome.message, /Database query failed: .+/);
      }
      // Argument checks come first: a bad call is still invalid_arguments while the database is down.
      const bad = outcomeOf((await server.client.callTool({ name: 'create_todo', arguments: {} })) as CallToolResult);
      assert.equal(bad.error_type, 'invalid_arguments');
      assert.doesNotMatch(server.log(), /ExperimentalWarning/, 'node:sqlite is loaded without its warning');
    } finally {
      await server.stop();
    }
  });
});

// What an earlier version left: a PGlite cluster in the folder with the todos table and two todos,
// written by PGlite itself in a process of its own.
const PGLITE_FOLDER = `
import('@electric-sql/pglite').then(async ({ PGlite }) => {
  const db = await PGlite.create(process.argv[1]);
  await db.exec(\`CREATE TABLE todos (todo_id text PRIMARY KEY, title text NOT NULL, description text, due_date timestamptz,
    priority text NOT NULL DEFAULT 'medium', status text NOT NULL DEFAULT 'pending', tags text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())\`);
  await db.query("INSERT INTO todos (todo_id, title, description, due_date, priority, status, tags, created_at) VALUES ('todo_aaaaaaaaaaaa', 'Buy milk', 'two litres', '2031-05-17T09:30:00Z', 'high', 'pending', '{shop,kitchen}', '2026-01-01T00:00:00Z')");
  await db.query("INSERT INTO todos (todo_id, title, status, created_at) VALUES ('todo_bbbbbbbbbbbb', 'Fix the lamp', 'completed', '2026-01-02T00:00:00Z')");
  await db.close();
});`;

describe('todo server: a PGlite folder of an earlier version', function () {
  this.timeout(180000);
  let dir: string;
  before(() => {
    dir = emptyTodoFolder('todo-from-pglite-');
    const made = spawnSync(process.execPath, ['-e', PGLITE_FOLDER, dir], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('moves its todos to SQLite once, keeps the PGlite files, and carries on with the copy', async () => {
    const server = await startTodoServer('stdio', { TODO_DATA_DIR: dir }, { entry: TODO_MAIN_DIST });
    try {
      const listed = outcomeOf((await server.client.callTool({ name: 'list_todos', arguments: { status: 'all' } })) as CallToolResult);
      assert.equal(listed.success, true, JSON.stringify(listed));
      assert.deepEqual(listed.todos, [
        {
          todo_id: 'todo_aaaaaaaaaaaa',
          title: 'Buy milk',
          description: 'two litres',
          due_date: '2031-05-17T09:30:00.000Z',
          priority: 'high',
          status: 'pending',
          tags: ['shop', 'kitchen'],
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: (listed.todos as Array<{ updated_at: string }>)[0].updated_at,
        },
        {
          todo_id: 'todo_bbbbbbbbbbbb',
          title: 'Fix the lamp',
          description: null,
          due_date: null,
          priority: 'medium',
          status: 'completed',
          tags: [],
          created_at: '2026-01-02T00:00:00.000Z',
          updated_at: (listed.todos as Array<{ updated_at: string }>)[1].updated_at,
        },
      ]);
      const tagged = outcomeOf((await server.client.callTool({ name: 'list_todos', arguments: { tags: ['kitchen'] } })) as CallToolResult);
      assert.deepEqual(
        (tagged.todos as Array<{ title: string }>).map((t) => t.title),
        ['Buy milk'],
      );
      const added = outcomeOf((await server.client.callTool({ name: 'create_todo', arguments: { title: 'After the move' } })) as CallToolResult);
      assert.equal(added.success, true);
      assert.match(server.log(), /copying the todos of the PGlite folder .* \(once\)/);
      assert.match(server.log(), /copied 2 todos; the PGlite files in .* are no longer used and may be deleted/);
    } finally {
      await server.stop();
    }
    assert.ok(existsSync(join(dir, 'PG_VERSION')), 'the PGlite files are left as they were');
    assert.ok(existsSync(join(dir, 'todos.sqlite')));
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('.todos-')),
      [],
      'no temporary copy is left behind',
    );
    const again = await startTodoServer('stdio', { TODO_DATA_DIR: dir }, { entry: TODO_MAIN_DIST });
    try {
      const listed = outcomeOf((await again.client.callTool({ name: 'list_todos', arguments: { status: 'all' } })) as CallToolResult);
      assert.deepEqual((listed.todos as Array<{ title: string }>).map((t) => t.title).sort(), ['After the move', 'Buy milk', 'Fix the lamp']);
      assert.doesNotMatch(again.log(), /copying the todos/, 'moved once');
    } finally {
      await again.stop();
    }
  });
});
