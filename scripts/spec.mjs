// `npm run spec -- <folder or file> [...]`: one area's specs alone, e.g. `npm run spec -- test/voice`
// after changing a file in src/voice. Builds first when dist/ is older than the sources (the
// browser and install specs run the built package), brings the test tools on a fresh clone, then
// runs mocha on Node 22 + Node-RED 4.1 (this machine's Node when it is 22 or newer, else .tools/node22); `--nr5` runs them on Node 24 + Node-RED 5 instead. Other
// arguments go to mocha (`npm run spec -- test/mcp --grep session`).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBecause } from './build-state.mjs';
import { node22Path, nodeIsCurrent } from './node-runtimes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command, args, env = {}) => spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const args = process.argv.slice(2);
const nr5 = args.includes('--nr5');
const paths = args.filter((a) => !a.startsWith('-') && existsSync(join(root, a)));
const mochaArgs = args.filter((a) => a !== '--nr5' && !paths.includes(a));
if (paths.length === 0) {
  console.error('npm run spec -- <folder or spec file> [...] [--nr5] [mocha options], e.g. npm run spec -- test/voice');
  process.exit(2);
}
const specs = paths.map((p) => {
  const rel = relative(root, join(root, p)).split('\\').join('/');
  return statSync(join(root, p)).isDirectory() ? `${rel}/**/*.test.ts` : rel;
});

if (run(process.execPath, [join(root, 'scripts', 'test-tools.mjs')]) !== 0) process.exit(1);
const stale = staleBecause(root);
if (stale) {
  console.log(`${stale}: building first`);
  if (run(process.execPath, [join(root, 'scripts', 'build.mjs')]) !== 0) process.exit(1);
}
const node = nr5 ? join(root, '.tools', 'nr5', 'node_modules', '.bin', 'node') : nodeIsCurrent() ? process.execPath : node22Path(root);
const env = { MOCHA_SPEC: specs.join(','), MOCHA_IGNORE: '', ...(nr5 ? { NODE_RED_RUNTIME: join(root, '.tools', 'nr5') } : {}) };
process.exit(run(node, [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), ...mochaArgs], env));
