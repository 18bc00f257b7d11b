// The SDK serves both protocol eras from the same server factory: 2025 clients open with
// `initialize`, 2026-07-28 clients send stateless requests that carry their protocol version.
// Node-RED users will meet both, so every tool is driven end to end through each.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { outcomeOf, startTodoServer, type StartOptions, type TransportKind, emptyTodoFolder } from './todo-server-process';

const ERAS: Array<{ label: string; versionNegotiation: StartOptions['versionNegotiation']; version: RegExp }> = [
  { label: '2025 era (initialize)', versionNegotiation: { mode: 'legacy' }, version: /^2025-/ },
  { label: '2026-07-28 (stateless)', versionNegotiation: { mode: { pin: '2026-07-28' } }, version: /^2026-07-28$/ },
];

describe('todo server: both protocol eras', function () {
  // One embedded-database folder for all four (one server process at a time).
  let dataDir: string;
  before(async () => (dataDir = emptyTodoFolder('todo-era-')));
  after(() => dataDir && rmSync(dataDir, { recursive: true, force: true }));

  for (const kind of ['stdio', 'http'] as TransportKind[]) {
    for (const era of ERAS) {
      describe(`${kind}, client pinned to ${era.label}`, function () {
        this.timeout(180000);
        const tag = `${kind}-${era.label}`;

        it('negotiates that revision and serves every tool through it', async () => {
          const server = await startTodoServer(kind, { TODO_DATA_DIR: dataDir }, { versionNegotiation: era.versionNegotiation });
          try {
            assert.match(server.client.getNegotiatedProtocolVersion() ?? '', era.version);
            const call = async (name: string, args: Record<string, unknown>) =>
              outcomeOf((await server.client.callTool({ name, arguments: args })) as CallToolResult);
            const created = await call('create_todo', { title: `via ${kind} ${era.label}`, tags: [tag] });
            assert.equal(created.success, true, JSON.stringify(created));
            const updated = await call('update_todo', { todo_id: created.todo_id, priority: 'high' });
            assert.deepEqual(updated.updated_fields, ['priority']);
            const listed = await call('list_todos', { priority: 'high', tags: [tag] });
            assert.deepEqual(
              listed.todos.map((t: { title: string }) => t.title),
              [`via ${kind} ${era.label}`],
            );
            const refused = await call('delete_todo', { todo_id: created.todo_id, confirmation: false });
            assert.equal(refused.error_type, 'invalid_arguments');
            const deleted = await call('delete_todo', { todo_id: created.todo_id, confirmation: true });
            assert.equal(deleted.success, true);
            const gone = await call('delete_todo', { todo_id: created.todo_id, confirmation: true });
            assert.equal(gone.error_type, 'todo_not_found');
          } finally {
            await server.stop();
          }
        });
      });
    }
  }
});
