// Two todo servers on one embedded-database folder (two examples deployed in one Node-RED) lost
// todos: each opened the folder, saw only its own writes, and the one closing last won. Now the
// first server owns the folder and the second shares it: both see every todo, nothing is lost over
// a restart, and when the owner stops the other server takes the folder over. Real server
// processes over stdio (the built server, as the examples and `npm start` run it: seven starts
// through tsx took two minutes), real MCP clients, real PGlite.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ownerAddress } from '../../servers/todo/shared-pglite';
import { seededTodoFolder } from './seeded-folder';
import { outcomeOf, startTodoServer, TODO_MAIN_DIST, type RunningTodoServer } from './todo-server-process';

async function create(server: RunningTodoServer, title: string): Promise<void> {
  const outcome = outcomeOf((await server.client.callTool({ name: 'create_todo', arguments: { title } })) as CallToolResult);
  assert.equal(outcome.success, true, JSON.stringify(outcome));
}

async function titles(server: RunningTodoServer): Promise<string[]> {
  const outcome = outcomeOf((await server.client.callTool({ name: 'list_todos', arguments: { status: 'all', limit: 100 } })) as CallToolResult);
  assert.equal(outcome.success, true, JSON.stringify(outcome));
  return (outcome.todos as Array<{ title: string }>).map((t) => t.title).sort();
}

describe('todo server: one embedded-database folder, one owner', function () {
  this.timeout(180_000);
  let dir: string;
  const running: RunningTodoServer[] = [];
  beforeEach(async () => (dir = await seededTodoFolder('todo-one-owner-')));
  afterEach(async () => {
    await Promise.allSettled(running.splice(0).map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async () => {
    const server = await startTodoServer('stdio', { TODO_DATA_DIR: dir }, { entry: TODO_MAIN_DIST });
    running.push(server);
    return server;
  };

  it('two servers writing to one folder both see all 10 todos, and all 10 survive a restart', async () => {
    const a = await start();
    await create(a, 'a0'); // a opens the folder first
    const b = await start();
    for (let i = 1; i < 5; i++) await create(a, `a${i}`);
    for (let i = 0; i < 5; i++) await create(b, `b${i}`);
    const all = ['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1', 'b2', 'b3', 'b4'];
    assert.deepEqual(await titles(a), all);
    assert.deepEqual(await titles(b), all);
    assert.match(b.log(), /shares the database folder/);
    // Both stop (the owner first, as a redeploy may), then one server reads the folder alone.
    await running.shift()!.stop();
    await running.shift()!.stop();
    const again = await start();
    assert.deepEqual(await titles(again), all);
  });

  it('when the owner stops, the other server takes the folder over and keeps writing', async () => {
    const owner = await start();
    await create(owner, 'before');
    const other = await start();
    await create(other, 'shared');
    await running.shift()!.stop(); // the owner
    // The first call after the owner left may find it gone; the next one runs on the new owner.
    let outcome = outcomeOf((await other.client.callTool({ name: 'create_todo', arguments: { title: 'after' } })) as CallToolResult);
    if (!outcome.success) {
      assert.equal(outcome.error_type, 'database_error', JSON.stringify(outcome));
      assert.equal(outcome.recoverable, true);
      outcome = outcomeOf((await other.client.callTool({ name: 'create_todo', arguments: { title: 'after' } })) as CallToolResult);
    }
    assert.equal(outcome.success, true, JSON.stringify(outcome));
    assert.deepEqual(await titles(other), ['after', 'before', 'shared']);
    await running.shift()!.stop();
    assert.deepEqual(await titles(await start()), ['after', 'before', 'shared']);
  });

  it("a process without the folder's key gets nothing from the owner", async () => {
    const owner = await start();
    await create(owner, 'private');
    const socket = createConnection(ownerAddress(dir));
    const received: string[] = [];
    socket.on('data', (d) => received.push(d.toString()));
    // The owner hangs up on a stranger; if that lands while the stranger still writes, the stranger
    // sees a reset (ECONNRESET): a refusal as much as a close, and 'close' follows either way.
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.write(`${JSON.stringify({ hello: 'n' })}\n`);
    socket.write(`${JSON.stringify({ proof: 'f'.repeat(64) })}\n`);
    socket.write(`${JSON.stringify({ id: 1, sql: 'SELECT title FROM todos', params: [] })}\n`);
    await new Promise((r) => socket.once('close', r));
    assert.doesNotMatch(received.join(''), /private/, 'no row reached the stranger');
    assert.deepEqual(await titles(owner), ['private']);
  });
});
