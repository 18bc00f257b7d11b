// `npm test`: everything, from a fresh clone, with nothing typed before it but `npm install`.
//   1. scripts/test-tools.mjs brings what npm install does not (first run only; see test/tools.json);
//   2. the build, the type check, ESLint and Prettier;
//   3. every spec on Node 20 + Node-RED 4.1 (the devDependency, the oldest we support);
//   4. the specs that run Node-RED, again on Node 24 + Node-RED 5 (the Home Assistant add-on's runtime);
//   5. one line with the totals of both runs, every skip with its reason and every failure by name.
// Extra arguments go to both mocha runs (e.g. `npm test -- --grep voice`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const mochaBin = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const nr5 = join(root, '.tools', 'nr5');
const node24 = join(nr5, 'node_modules', '.bin', 'node');

/**
 * Not run a second time on Node 24, each for a reason: test/install already installs the packed
 * package into both runtimes; the conformance suites run under their own Node 22; the schema
 * compiler, the audio codecs, the todo server, the test peers and the source-tree checks never
 * load Node-RED, so a second runtime tells nothing new about them.
 */
export const NOT_ON_NODE24 = [
  'test/install/**',
  'test/conformance.test.ts',
  'test/server/conformance.test.ts',
  'test/schema/**',
  'test/audio/**',
  'test/todo/**',
  'test/peers/**',
  'test/architecture.test.ts',
  'test/text.test.ts',
];

function step(what, command, args, env = {}) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`npm test: ${what} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  return Date.now() - started;
}

function mochaRun(name, node, env, extraArgs) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gemini-stats-'));
  const statsFile = join(dir, 'stats.json');
  console.log(`\nnpm test: the specs on ${name}`);
  const result = spawnSync(node, [mochaBin, ...extraArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, MOCHA_STATS_FILE: statsFile },
  });
  const stats = existsSync(statsFile) ? JSON.parse(readFileSync(statsFile, 'utf8')) : undefined;
  rmSync(dir, { recursive: true, force: true });
  // A run that died before its end (a crash, a signal) has no stats: count it as one failure.
  return {
    name,
    exit: result.status ?? 1,
    stats: stats ?? { passes: 0, failures: 1, pending: 0, reasons: [{ what: name, reason: 'mocha ended before its summary' }] },
  };
}

const extraArgs = process.argv.slice(2);
step('test setup', process.execPath, [join(root, 'scripts', 'test-tools.mjs')]);
step('build', npm, ['run', '--silent', 'build']);
step('type check', npm, ['run', '--silent', 'typecheck']);
step('lint', npm, ['run', '--silent', 'lint']);

const runs = [mochaRun('Node 20 + Node-RED 4.1', process.execPath, {}, extraArgs)];
if (existsSync(node24)) {
  runs.push(mochaRun('Node 24 + Node-RED 5', node24, { NODE_RED_RUNTIME: nr5, MOCHA_IGNORE: NOT_ON_NODE24.join(',') }, extraArgs));
} else {
  runs.push({ name: 'Node 24 + Node-RED 5', exit: 1, stats: { passes: 0, failures: 1, pending: 0, reasons: [] } });
  console.error(`npm test: ${node24} is missing although test setup ran`);
}

const total = (key) => runs.reduce((sum, r) => sum + r.stats[key], 0);
console.log('\nnpm test, both runtimes:');
for (const r of runs) console.log(`  ${r.name}: ${r.stats.passes} passing, ${r.stats.failures} failing, ${r.stats.pending} skipped`);
const reasons = [...new Map(runs.flatMap((r) => r.stats.reasons).map((s) => [`${s.what}: ${s.reason}`, s])).keys()];
for (const reason of reasons) console.log(`  skipped ${reason}`);
for (const r of runs) {
  for (const f of r.stats.failed ?? []) console.log(`  failed on ${r.name}: ${f.title} (${f.file})\n    ${f.error}`);
}
console.log(`tests: ${total('passes')} passed, ${total('failures')} failed, ${total('pending')} skipped`);
process.exit(runs.some((r) => r.exit !== 0) ? 1 : 0);
