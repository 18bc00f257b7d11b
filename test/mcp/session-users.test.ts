// Session lifetime follows its users, as core's mqtt-broker does: the stdio server starts with the
// first request, ends when the last node using the config node is removed, and starts again (a new
// process) when a node uses it again. Proven by the server's pid, through the real runtime.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helper, mcpNodes, nextMessage, send, startRuntime, stopRuntime, until } from '../helpers/runtime';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};


describe('session lifetime follows its user nodes', function () {
  this.timeout(60000);
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-users-'));
    await startRuntime();
  });
  after(async () => {
    await stopRuntime();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the stdio server ends with the last user and a new one starts on next use', async () => {
    const logFile = join(dir, 'pids.log');
    const pids = () => [...readFileSync(logFile, 'utf8').matchAll(/ready (\d+)/g)].map((m) => Number(m[1]));
    const tab = { id: 't1', type: 'tab', label: 'users' };
    const server = {
      id: 'srv',
      type: 'mcp-server',
      name: 'lifecycle',
      transport: 'stdio',
      command: process.execPath,
      args: ['--import', 'tsx', join(__dirname, '..', 'peers', 'lifecycle-server.ts')],
      env: { LIFECYCLE_LOG: logFile },
    };
    const users = [
      { id: 'list', type: 'mcp-list-tools', z: 't1', server: 'srv', wires: [['out']] },
      { id: 'out', type: 'helper', z: 't1' },
    ];
    await helper.load(mcpNodes as any, [tab, server, ...users] as any);
    const first = nextMessage('out');
    send('list', {});
    await first;
    const [pid] = pids();
    assert.ok(alive(pid), 'the server runs while a node uses it');

    // Remove the user nodes only (a "modified nodes" deploy): the config node stays, its session ends.
    await helper.setFlows([tab, server, { id: 'out', type: 'helper', z: 't1' }] as any, 'nodes');
    await until(`server ${pid} to exit`, () => !alive(pid));

    await helper.setFlows([tab, server, ...users] as any, 'nodes');
    const again = nextMessage('out');
    send('list', {});
    assert.deepEqual(
      (await again).payload.map((t: any) => t.name),
      ['add-tool', 'wait', 'exit'],
    );
    const after = pids();
    assert.equal(after.length, 2, `a second server process: ${after}`);
    assert.notEqual(after[1], pid);
    assert.ok(alive(after[1]));
  });
});
