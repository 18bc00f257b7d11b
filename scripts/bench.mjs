// Runs one benchmark (bench/<name>.ts) on the Node this package supports: this one when it is 22 or
// newer, else the Node 22 of .tools/node22 (installed once), so the Node-RED and the servers a bench
// starts with process.execPath run on a Node that loads the package. Node options before the file
// (--expose-gc) are passed on: `node scripts/bench.mjs [--node-option …] bench/<name>.ts [args …]`.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { floorNode } from './node-runtimes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const node = await floorNode(root, 'bench');
const result = spawnSync(node, ['--import', 'tsx', ...args], { cwd: root, stdio: 'inherit' });
process.exit(result.status ?? 1);
