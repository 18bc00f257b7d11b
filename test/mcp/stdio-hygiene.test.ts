// No process outlives its node: a stdio server started through `sh -c` that spawns a grandchild
// which ignores SIGTERM is gone (checked by pid) after a redeploy and after the node is removed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive, killStubbornPids, stubbornStdioCommand, waitForStubbornPids } from '../peers/stubborn-stdio';
import { load, nextMessage, send, sleep, startRuntime, stopRuntime, setFlows } from '../helpers/runtime';

function stubbornFlow(pidFile: string, name = 'stubborn') {
  const cmd = stubbornStdioCommand(pidFile);
  return [
    { id: 'srv', type: 'mcp-server', name, transport: 'stdio', command: cmd.command, args: cmd.args, env: cmd.env },
    { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
    { id: 'out', type: 'helper' },
  ];
}

async function waitGone(pids: number[], ms = 10000): Promise<number[]> {
  const end = Date.now() + ms;
  let alive = pids.filter(isAlive);
  while (alive.length && Date.now() < end) {
    await sleep(100);
    alive = pids.filter(isAlive);
  }
  return alive;
}

describe('stdio process hygiene', function () {
  this.timeout(60000);
  let dir: string;
  const pidFiles: string[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-stubborn-'));
    await startRuntime();
  });
  after(async () => {
    await stopRuntime();
    pidFiles.forEach(killStubbornPids);
    rmSync(dir, { recursive: true, force: true });
  });

  async function startStubborn(tag: string) {
    const pidFile = join(dir, `${tag}.pids`);
    pidFiles.push(pidFile);
    await load(stubbornFlow(pidFile, tag));
    const got = nextMessage('out');
    send('list', {});
    await got; // the session is up, so the server and its grandchild are running
    const pids = await waitForStubbornPids(pidFile);
    assert.ok([pids.shell, pids.server, pids.grandchild].every(isAlive), 'all three processes run before the test acts');
    return pids;
  }

  it('a redeploy kills the shell, the server and the SIGTERM-ignoring grandchild', async () => {
    const pids = await startStubborn('redeploy');
    await load(stubbornFlow(join(dir, 'redeploy-2.pids'), 'redeploy-2')); // full redeploy replaces the config node
    pidFiles.push(join(dir, 'redeploy-2.pids'));
    const alive = await waitGone([pids.shell, pids.server, pids.grandchild]);
    assert.deepEqual(alive, [], `still alive after redeploy: ${alive.join(', ')}`);
  });

  it('removing the node kills the whole process group', async () => {
    const pids = await startStubborn('remove');
    await setFlows([{ id: 'test-tab', type: 'tab', label: 'empty' }] as any);
    const alive = await waitGone([pids.shell, pids.server, pids.grandchild]);
    assert.deepEqual(alive, [], `still alive after removal: ${alive.join(', ')}`);
  });
});
