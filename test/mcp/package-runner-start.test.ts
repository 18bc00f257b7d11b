// A stdio server started through a package runner (`npx -y pkg`), as a new user's first MCP server
// often is, in a real Node-RED: the runner here is a stand-in `npx` first in PATH that says what npm
// says before a download, takes 8 s (longer than the server's 3 s Timeout) and then starts the demo
// server. The first start gets the time, the status says why it waits, and the runner is started
// once, not once per retry. Stopping a server that is still starting (a redeploy mid-download) ends
// it at once: no "Close timed out", no process left behind.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { until } from '../helpers/wait';
import { isAlive as alive } from '../peers/stubborn-stdio';

const { ROOT } = require('../../scripts/node-red-home.cjs');
const DEMO = join(ROOT, 'dist', 'servers', 'demo', 'main.js');

describe('stdio servers started through npx: a first start that downloads', function () {
  this.timeout(120_000);
  let dir: string;
  let nr: NodeRedProcess;

  const flow = (delayS: number) => [
    { id: 'tab', type: 'tab', label: 'npx' },
    {
      id: 'srv',
      type: 'mcp-server',
      z: 'tab',
      name: 'first npx server',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'some-mcp-server'],
      env: JSON.stringify({ RUNS: join(dir, 'runs'), DELAY_S: String(delayS) }),
      timeout: 3,
    },
    {
      id: 'call',
      type: 'mcp-call-tool',
      z: 'tab',
      x: 300,
      y: 100,
      server: 'srv',
      tool: 'echo',
      arguments: 'payload',
      argumentsType: 'msg',
      outputs: 2,
      wires: [['out'], []],
    },
    { id: 'out', type: 'debug', z: 'tab', x: 500, y: 100, name: 'out', active: true, tosidebar: true, complete: 'payload', targetType: 'msg', wires: [] },
    { id: 'catch', type: 'catch', z: 'tab', x: 100, y: 200, wires: [['err']] },
    { id: 'err', type: 'debug', z: 'tab', x: 300, y: 200, name: 'err', active: true, tosidebar: true, complete: 'error', targetType: 'msg', wires: [] },
    { id: 'go', type: 'inject', z: 'tab', x: 100, y: 100, props: [{ p: 'payload' }], payload: '{"message":"hi"}', payloadType: 'json', wires: [['call']] },
  ];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-npx-'));
    // What npm prints before it installs a package it has not cached, then the download's wait.
    writeFileSync(
      join(dir, 'npx'),
      `#!/bin/sh\necho $$ >> "$RUNS"\necho "npm warn exec The following package was not found and will be installed: some-mcp-server@1.0.0" >&2\nsleep "$DELAY_S"\nexec "${process.execPath}" "${DEMO}"\n`,
    );
    chmodSync(join(dir, 'npx'), 0o755);
    nr = await startNodeRed({ env: { PATH: `${dir}:${process.env.PATH}` } });
  });
  after(async () => {
    await nr?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const runs = () => (existsSync(join(dir, 'runs')) ? readFileSync(join(dir, 'runs'), 'utf8').trim().split('\n').map(Number) : []);

  it('waits past the 3 s Timeout for the first start, says why, and starts the runner once', async () => {
    await nr.deploy(flow(8));
    await nr.inject('go');
    await until('the status to say npx may be downloading', () => /npx may be downloading the server/.test(nr.debug.statuses.get('call')?.text ?? ''), 15_000);
    const answer = await nr.debug.next('out', undefined, 60_000);
    assert.equal(answer.value, 'Echo: hi');
    assert.equal(runs().length, 1, 'started once, not once per retry');
    assert.ok(
      nr.log.some((l) => /npx has not started the server after 5 s; a first start downloads it/.test(l)),
      nr.log.join('\n'),
    );
    assert.deepEqual(nr.debug.errors(), []);
  });

  it('a redeploy while npx is still downloading stops it at once, without "Close timed out"', async () => {
    // The default 60 s Timeout: a close that waited for the start would outlast Node-RED's 15 s.
    await nr.deploy(flow(60).map((n) => (n.type === 'mcp-server' ? { ...n, args: ['-y', 'another-mcp-server'], timeout: 60 } : n)));
    const before = runs().length;
    await nr.inject('go');
    await until('the runner to start', () => runs().length > before, 15_000);
    const pid = runs()[runs().length - 1];
    assert.ok(alive(pid));
    const started = Date.now();
    await nr.deploy([{ id: 'tab', type: 'tab', label: 'npx' }]);
    await until('the runner to be gone', () => !alive(pid), 15_000);
    assert.ok(Date.now() - started < 10_000, 'stopped well within the 15 s Node-RED gives a node');
    assert.ok(!nr.log.some((l) => /Close timed out|Error stopping node/.test(l)), nr.log.join('\n'));
  });
});
