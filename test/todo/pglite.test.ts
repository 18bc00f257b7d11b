// The todo contract over stdio and over Streamable HTTP with embedded PGlite storage (what runs
// when no DATABASE_URL is set), plus PGlite's own failure: an unusable data directory.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { defineContractSuite } from './contract-suite';
import { seededTodoFolder } from './seeded-folder';
import { outcomeOf, startTodoServer, type TransportKind } from './todo-server-process';

// Over stdio the server starts on an empty folder and creates its database, as on a user's first
// start; over HTTP on a copy of one created before (seeded-folder.ts: the same contract, 8 s less CPU).
for (const kind of ['stdio', 'http'] as TransportKind[]) {
  describe(`todo server contract: ${kind} + PGlite directory`, function () {
    let dataDir: string | undefined;
    after(() => dataDir && rmSync(dataDir, { recursive: true, force: true }));
    const folder = async () => (dataDir ??= kind === 'stdio' ? mkdtempSync(join(tmpdir(), 'todo-pglite-')) : await seededTodoFolder('todo-pglite-'));
    defineContractSuite({ start: async () => startTodoServer(kind, { TODO_DATA_DIR: await folder() }) });
  });
}

describe('todo server: PGlite database unavailable', function () {
  this.timeout(180000);
  const dir = mkdtempSync(join(tmpdir(), 'todo-pglite-broken-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('answers database_error (recoverable) from every tool when the data directory is unusable', async () => {
    // A regular file where the database directory should be: PGlite cannot open it.
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
    } finally {
      await server.stop();
    }
  });
});
