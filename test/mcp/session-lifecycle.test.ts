// What a long-lived session does over time, through the real runtime and a real stdio server:
// the tool list refreshes on notifications/tools/list_changed, the session comes back by itself
// after the server goes away (status red, then green again), and closing a node cancels its
// in-flight calls with notifications/cancelled. And, as core's mqtt-broker does, the session (and
// its stdio process) ends when the last node using it is removed and starts anew on next use.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { helper, load, mcpNodes, nextMessage, send, startRuntime, stopRuntime, until, setFlows } from '../helpers/runtime';
import { alive, readLog } from '../peers/lifecycle-log';

function serverNode(logFile: string) {
  return {
    id: 'srv',
    type: 'mcp-server',
    name: 'lifecycle',
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', 'tsx', join(__dirname, '..', 'peers', 'lifecycle-server.ts')],
    env: { LIFECYCLE_LOG: logFile },
  };
}

describe('session lifecycle', function () {
  this.timeout(60000);
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-lifecycle-'));
    await startRuntime();
  });
  after(async () => {
    await stopRuntime();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => helper.unload());

  function flow(logFile: string) {
    return [
      serverNode(logFile),
      { id: 'list', type: 'mcp-list-tools', server: 'srv', wires: [['out']] },
      { id: 'call', type: 'mcp-call-tool', server: 'srv', toolErrors: 'output', wires: [['out'], []] },
      { id: 'out', type: 'helper' },
      { id: 'catcher', type: 'catch', scope: null, uncaught: false, wires: [['caught']] },
      { id: 'caught', type: 'helper' },
    ];
  }

  async function list(): Promise<string[]> {
    const got = nextMessage('out');
    send('list', {});
    return (await got).payload.map((t: any) => t.name);
  }

  it("logs the stdio server's stderr lines in Node-RED's log (info level)", async () => {
    await load(flow(join(dir, 'stderr.log')));
    const logs = helper.log();
    await list();
    await until('the stderr line in the log', () =>
      logs.args.some((a: any[]) => a[0]?.level === 40 /* info */ && /\[lifecycle\] lifecycle server \d+ ready/.test(String(a[0]?.msg))),
    );
  });

  it('serves the tool list from its cache and asks the server again once after tools/list_changed', async () => {
    const logFile = join(dir, 'changed.log');
    const listRequests = () => (readLog(logFile).match(/^list \d+$/gm) ?? []).length;
    await load(flow(logFile));
    assert.deepEqual(await list(), ['add-tool', 'wait', 'exit']);
    assert.equal(listRequests(), 1, 'the first list asks the server');
    assert.deepEqual(await list(), ['add-tool', 'wait', 'exit']);
    assert.equal(listRequests(), 1, 'the second list comes from the cache');
    const added = nextMessage('out');
    send('call', { tool: 'add-tool', payload: {} });
    assert.equal((await added).payload, 'now 4 tools');
    // The session refreshes by itself shortly after the notification (it waits for a burst to end).
    await until('one tools/list after tools/list_changed', () => listRequests() === 2);
    assert.deepEqual(await list(), ['add-tool', 'wait', 'exit', 'added-3']);
    assert.deepEqual(await list(), ['add-tool', 'wait', 'exit', 'added-3']);
    assert.equal(listRequests(), 2, 'the refreshed list is cached again: one request for the change, none per list');
  });

  it('reconnects by itself after the server goes away: status red, then green again', async () => {
    const logFile = join(dir, 'reconnect.log');
    await load(flow(logFile));
    const statuses: any[] = [];
    const listNode = helper.getNode('list');
    const original = listNode.status.bind(listNode);
    listNode.status = (s: any) => {
      statuses.push(s);
      return original(s);
    };
    await list();
    const pidsBefore = readLog(logFile).match(/ready (\d+)/g) ?? [];
    assert.equal(pidsBefore.length, 1);
    const bye = nextMessage('out');
    send('call', { tool: 'exit', payload: {} });
    assert.equal((await bye).payload, 'bye');
    await until('a red "disconnected" status', () => statuses.some((s) => s.fill === 'red' && /disconnected/.test(s.text)));
    // No message is sent: the session reconnects in the background (first retry after 1 s).
    await until('a second server process', () => (readLog(logFile).match(/ready (\d+)/g) ?? []).length === 2);
    await until('a green status again', () => {
      const last = statuses[statuses.length - 1];
      return last?.fill === 'green' && /3 tools/.test(last.text);
    });
    assert.deepEqual(await list(), ['add-tool', 'wait', 'exit']);
  });

  it('closing the node cancels its in-flight call (notifications/cancelled reaches the server)', async () => {
    const logFile = join(dir, 'cancel.log');
    await load(flow(logFile));
    send('call', { tool: 'wait', payload: {} });
    await until('the call running on the server', () => /started/.test(readLog(logFile)));
    // Redeploy only the call node; the server config node and its session stay.
    await setFlows(
      [
        { id: 'test-tab', type: 'tab', label: 'test' },
        serverNode(logFile),
        { id: 'list', type: 'mcp-list-tools', server: 'srv', z: 'test-tab', wires: [['out']] },
        { id: 'out', type: 'helper', z: 'test-tab' },
      ] as any,
      'nodes',
    );
    await until('the server seeing the cancellation', () => /cancelled/.test(readLog(logFile)));
  });

  it('the stdio server ends with the last user node and a new one starts on next use (by pid)', async () => {
    const logFile = join(dir, 'pids.log');
    const pids = () => [...readLog(logFile).matchAll(/ready (\d+)/g)].map((m) => Number(m[1]));
    const tab = { id: 't1', type: 'tab', label: 'users' };
    const server = serverNode(logFile);
    const users = [
      { id: 'list', type: 'mcp-list-tools', z: 't1', server: 'srv', wires: [['out']] },
      { id: 'out', type: 'helper', z: 't1' },
    ];
    await helper.load(mcpNodes as any, [tab, server, ...users] as any);
    await list();
    const [pid] = pids();
    assert.ok(alive(pid), 'the server runs while a node uses it');

    // Remove the user nodes only (a "modified nodes" deploy): the config node stays, its session ends.
    await setFlows([tab, server, { id: 'out', type: 'helper', z: 't1' }] as any, 'nodes');
    await until(`server ${pid} to exit`, () => !alive(pid));

    await setFlows([tab, server, ...users] as any, 'nodes');
    assert.deepEqual(await list(), ['add-tool', 'wait', 'exit']);
    const after = pids();
    assert.equal(after.length, 2, `a second server process: ${after}`);
    assert.notEqual(after[1], pid);
    assert.ok(alive(after[1]));
  });
});
