// Two todo servers on one embedded-database folder (two examples deployed in one Node-RED): both
// open the same SQLite file, both see every todo, nothing is lost over a restart, and one stopping
// does not disturb the other. Real server processes over stdio (the built server, as the examples
// and `npm start` run it), real MCP clients, real SQLite.
import { strict as assert } from 'node:assert';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { emptyTodoFolder, outcomeOf, startTodoServer, TODO_MAIN_DIST, type RunningTodoServer } from './todo-server-process';

async function create(server: RunningTodoServer, title: string): Promise<void> {
  const outcome = outcomeOf((await server.client.callTool({ name: 'create_todo', arguments: { title } })) as CallToolResult);
  assert.equal(outcome.success, true, JSON.stringify(outcome));
}

async function titles(server: RunningTodoServer): Promise<string[]> {
  const outcome = outcomeOf((await server.client.callTool({ name: 'list_todos', arguments: { status: 'all', limit: 100 } })) as CallToolResult);
  assert.equal(outcome.success, true, JSON.stringify(outcome));
  return (outcome.todos as Array<{ title: string }>).map((t) => t.title).sort();
}

describe('todo server: one embedded-database folder, several servers', function () {
  this.timeout(180_000);
  let dir: string;
  const running: RunningTodoServer[] = [];
  beforeEach(() => (dir = emptyTodoFolder('todo-one-folder-')));
  afterEach(async () => {
    await Promise.allSettled(running.splice(0).map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const server = await startTodoServer('stdio', { TODO_DATA_DIR: dir }, { entry: TODO_MAIN_DIST });
    running.push(server);
    return server;
  };

  it('two servers writing to one folder at once both see all 20 todos, and all 20 survive a restart', async () => {
    const a = await start();
    await create(a, 'a00');
    const b = await start();
    // Interleaved and concurrent: each write may wait for the other's.
    await Promise.all([
      ...Array.from({ length: 9 }, (_, i) => create(a, `a${String(i + 1).padStart(2, '0')}`)),
      ...Array.from({ length: 10 }, (_, i) => create(b, `b${String(i).padStart(2, '0')}`)),
    ]);
    const all = [
      ...Array.from({ length: 10 }, (_, i) => `a${String(i).padStart(2, '0')}`),
      ...Array.from({ length: 10 }, (_, i) => `b${String(i).padStart(2, '0')}`),
    ];
    assert.deepEqual(await titles(a), all);
    assert.deepEqual(await titles(b), all);
    await running.shift()!.stop();
    await create(b, 'b10'); // the other one carries on alone
    await running.shift()!.stop();
    assert.deepEqual(await titles(await start()), [...all, 'b10'].sort());
  });

  it('the database file is readable by its owner only', async () => {
    await create(await start(), 'private');
    assert.equal(statSync(join(dir, 'todos.sqlite')).mode & 0o077, 0);
  });
});
