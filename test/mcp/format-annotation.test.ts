// `format` is an annotation (JSON Schema 2020-12): with validation on, mcp-call-tool still refuses
// arguments that break the schema, but a value whose format a strict check would refuse is sent, and
// the server decides. Against the bundled todo server over stdio (a server nobody's client wrote for
// it): the todo contract's own example `due_date: "2025-12-22T15:00:00"` (no offset) is created, and
// msg.mcp.warnings says the format did not match; a wrong type is still refused before sending.
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { skipBecause } from '../helpers/skip';
import { helper, load, nextMessage, send, startRuntime, stopRuntime } from '../helpers/runtime';
import { emptyTodoFolder } from '../todo/todo-server-process';

const TODO_SERVER = join(__dirname, '..', '..', 'dist', 'servers', 'todo', 'main.js');

describe('mcp-call-tool: format is checked, reported and not refused (bundled todo server over stdio)', function () {
  this.timeout(60_000);
  let dataDir: string;

  before(async function () {
    if (!existsSync(TODO_SERVER)) skipBecause(this, 'the format spec', `${TODO_SERVER} is missing (npm test builds it; run npm run build)`);
    dataDir = emptyTodoFolder('format-annotation-');
    await startRuntime();
  });
  after(async () => {
    await stopRuntime();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() =>
    load([
      {
        id: 'srv',
        type: 'mcp-server',
        name: 'todo',
        transport: 'stdio',
        command: process.execPath,
        args: [TODO_SERVER, 'stdio'],
        env: { TODO_DATA_DIR: dataDir, DATABASE_URL: '' },
      },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', tool: 'create_todo', validate: true, wires: [['out'], []] },
      { id: 'out', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ]),
  );
  afterEach(() => helper.unload());

  it("the contract's own example date without an offset is sent and created; msg.mcp.warnings names the format", async () => {
    // The first call also waits for the server to start (a child process opening its database):
    // slower while other specs run beside this one.
    const got = nextMessage('out', 50_000);
    send('call', { payload: { title: 'dentist', due_date: '2025-12-22T15:00:00' } });
    const msg = await got;
    assert.equal(msg.payload.success, true, JSON.stringify(msg.payload));
    assert.deepEqual(
      msg.mcp.warnings.map((w: any) => [w.tool, w.path]),
      [['create_todo', 'due_date']],
    );
    assert.match(msg.mcp.warnings[0].message, /^format: must match format "date-time" \(sent anyway; the server decides\)$/);
  });

  it('arguments that break the schema otherwise are still refused before anything is sent', async () => {
    const caught = nextMessage('caught');
    send('call', { payload: { title: 42, due_date: 'tomorrow' } });
    const msg = await caught;
    assert.match(msg.error.message, /title: must be string/);
  });
});
