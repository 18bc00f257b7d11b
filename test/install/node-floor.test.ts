// The package needs Node.js 22 or later. A Node-RED on an older Node loads none of its node types
// and says why in one sentence, once (not once per node type, and not as a library's stack trace).
// The older Node is this machine's own when it has one (Debian's Node 20 on the CI machine); on a
// machine whose Node is already 22 or newer, a preload makes Node-RED's Node report 20.19.0, which
// is all the package looks at.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { until } from '../helpers/wait';

const ROOT = join(__dirname, '..', '..');

function machineNode(): { node: string; version: string } | undefined {
  try {
    const node = execFileSync('sh', ['-c', 'command -v node'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }).trim();
    const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    return { node, version };
  } catch {
    return undefined;
  }
}

describe('Node.js floor: an older Node gets one plain sentence, no node types and no stack trace', function () {
  this.timeout(90_000);
  let nr: NodeRedProcess | undefined;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-node-floor-'));
    const own = machineNode();
    const older = own && Number(own.version.split('.')[0]) < 22;
    const preload = join(dir, 'claim-node-20.cjs');
    writeFileSync(preload, "Object.defineProperty(process.versions, 'node', { value: '20.19.0' });\n");
    console.log(older ? `    Node-RED on this machine's Node ${own!.version}` : '    Node-RED on this Node, reporting 20.19.0 (no older Node here)');
    nr = await startNodeRed({
      installed: {
        runtime: { folder: ROOT, node: older ? own!.node : process.execPath },
        nodeArgs: older ? [] : ['--require', preload],
      },
    });
  });
  after(async () => {
    await nr?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs the sentence once, loads no node type, and a flow waits for them', async () => {
    await until('the Node.js sentence', () => nr!.log.some((l) => /needs Node\.js 22 or later/.test(l)));
    const lines = nr!.log.filter((l) => /node-red-contrib-mcp-gemini needs Node\.js 22 or later, and this Node-RED runs on Node\.js 20\./.test(l));
    assert.equal(lines.length, 1, nr!.log.join('\n'));
    assert.match(lines[0], /Upgrade Node\.js \(the Home Assistant add-on ships Node\.js 24\), then restart Node-RED/);
    assert.ok(!nr!.log.some((l) => /^\s+at /.test(l)), 'no stack trace');
    // A flow that uses them waits for them (Node-RED's own words) instead of failing inside the package.
    await nr!.deploy([
      { id: 'tab', type: 'tab', label: 'floor' },
      { id: 'list', type: 'mcp-list-tools', z: 'tab', x: 200, y: 100, wires: [[]] },
    ]);
    await until(
      'Node-RED to wait for the types',
      () => nr!.log.some((l) => /Waiting for missing types/.test(l)) && nr!.log.some((l) => /\s- mcp-list-tools$/.test(l)),
    );
  });
});
