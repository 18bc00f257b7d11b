// POST /mcp-server/tools for a server that is not deployed (the dialogs' dropdowns before a deploy):
// a refresh with the same settings is answered from a short-lived cache, so the real stdio server
// sees one tools/list and is started once, and the process it started is gone after the listing.
// Other settings (a changed env) are listed anew.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helper, load, startRuntime, stopRuntime } from './helpers/runtime';
import { until } from './helpers/wait';
import { alive, logEntries, readLog } from './peers/lifecycle-log';

describe('POST /mcp-server/tools for an undeployed stdio server', function () {
  this.timeout(60000);
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-editor-cache-'));
    await startRuntime();
    await load([]); // the node modules register the admin routes
  });
  after(async () => {
    await stopRuntime();
    rmSync(dir, { recursive: true, force: true });
  });

  const dialog = (logFile: string, extraEnv: Record<string, string> = {}) => ({
    id: 'not-deployed',
    config: {
      name: 'lifecycle',
      transport: 'stdio',
      command: process.execPath,
      args: JSON.stringify(['--import', 'tsx', join(__dirname, 'peers', 'lifecycle-server.ts')]),
      env: JSON.stringify({ LIFECYCLE_LOG: logFile, ...extraEnv }),
    },
  });

  it('refreshing the dialog twice starts one process and sends one tools/list; the process ends after listing', async () => {
    const logFile = join(dir, 'same.log');
    for (let refresh = 0; refresh < 2; refresh++) {
      const res = await helper.request().post('/mcp-server/tools').send(dialog(logFile)).expect(200);
      assert.deepEqual(
        res.body.tools.map((t: { name: string }) => t.name),
        ['add-tool', 'wait', 'exit'],
      );
    }
    assert.equal(logEntries(logFile, 'list').length, 1, readLog(logFile));
    const pids = logEntries(logFile, 'ready');
    assert.equal(pids.length, 1, readLog(logFile));
    await until(`stdio server ${pids[0]} to exit after listing`, () => !alive(pids[0]));
  });

  it('other settings are listed anew', async () => {
    const logFile = join(dir, 'changed.log');
    await helper.request().post('/mcp-server/tools').send(dialog(logFile)).expect(200);
    await helper
      .request()
      .post('/mcp-server/tools')
      .send(dialog(logFile, { CHANGED: '1' }))
      .expect(200);
    assert.equal(logEntries(logFile, 'list').length, 2, readLog(logFile));
  });

  it('suggests the closest tool names (the runtime suggestion function) for a name the server does not have', async () => {
    const res = await helper
      .request()
      .post('/mcp-server/tools')
      .send({ ...dialog(join(dir, 'near.log')), near: 'wiat' })
      .expect(200);
    assert.equal(res.body.near[0], 'wait');
  });
});
