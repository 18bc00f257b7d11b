// `npm test`: what a contributor runs, from a fresh clone with nothing typed before it but `npm install`.
//   1. scripts/test-tools.mjs brings what npm install does not (first run only; see test/tools.json),
//   2. beside the build;
//   3. the type check, ESLint and Prettier, beside the specs: every spec on Node 22 + Node-RED 4.1 (the devDependency, the oldest we support)
//      but the editor's, and the specs whose subject is the runtime (scripts/test-plan.mjs,
//      RUNTIME_SPECS, the editor's included) on Node 24 + Node-RED 5 (the Home Assistant add-on's
//      runtime), split over parallel mocha processes;
//   4. the totals, each part's time, every skip with its reason and every failure by name.
// `npm run test:all` (what CI runs) takes every spec on both runtimes (Node 24 minus NOT_ON_NODE24).
// TEST_JOBS sets how many mocha processes run at once (default 3: most specs wait on sockets,
// processes and timers, not on a core). Extra arguments go to every mocha run (`npm test -- --grep voice`).
import { node22Path, nodeIsCurrent } from './node-runtimes.mjs';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NOT_ON_NODE24, RUNTIME_SPECS, floorRuntimeFiles, matching, notMatching, specFiles, specTimes, splitByTime } from './test-plan.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const mochaBin = join(root, 'node_modules', 'mocha', 'bin', 'mocha.js');
const nr5 = join(root, '.tools', 'nr5');
// The floor runtime's Node: this one when it is 22 or newer, else the Node 22 the setup brings.
const node22 = nodeIsCurrent() ? process.execPath : node22Path(root);
const node24 = join(nr5, 'node_modules', '.bin', 'node');

const args = process.argv.slice(2);
const all = args.includes('--all');
const extraArgs = args.filter((a) => a !== '--all');
const jobs = Math.max(1, Number(process.env.TEST_JOBS) || 3);
const parts = [];
const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

async function step(what, command, stepArgs) {
  const started = Date.now();
  const exit = await new Promise((resolve) => {
    const child = spawn(command, stepArgs, { cwd: root, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('close', (code, signal) => resolve(code ?? signal));
  });
  if (exit !== 0) {
    console.error(`npm test: ${what} failed (exit ${exit})`);
    process.exit(typeof exit === 'number' ? exit : 1);
  }
  parts.push(`${what} ${seconds(Date.now() - started)}`);
}

function captured(name, command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code, signal) => resolve({ name, output, exit: code ?? (signal ? 1 : 0) }));
  });
}

/** One mocha process over `files`; its counts come back through the reporter's stats file. */
async function mochaRun(run) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gemini-stats-'));
  const statsFile = join(dir, 'stats.json');
  const started = Date.now();
  // Captured output is read in logs, not a terminal: no colour codes.
  const result = await captured(run.label, run.node, [mochaBin, '--no-color', ...extraArgs], {
    // Node 22 and 24 (the conformance suites, Node-RED 5) keep compiled code between processes; Node 20 ignores it.
    NODE_COMPILE_CACHE: join(root, '.tools', 'compile-cache'),
    ...run.env,
    MOCHA_SPEC: run.files.join(','),
    MOCHA_IGNORE: '',
    MOCHA_STATS_FILE: statsFile,
  });
  const stats = existsSync(statsFile) ? JSON.parse(readFileSync(statsFile, 'utf8')) : undefined;
  rmSync(dir, { recursive: true, force: true });
  console.log(`\n==== ${run.label}: ${run.files.length} spec files, ${seconds(Date.now() - started)} ====`);
  process.stdout.write(result.output);
  // A run that died before its end (a crash, a signal) has no stats: count it as one failure.
  return {
    ...run,
    exit: result.exit,
    stats: stats ?? {
      passes: 0,
      failures: 1,
      pending: 0,
      files: {},
      reasons: [],
      failed: [{ title: 'mocha ended before its summary', file: run.files.join(' '), error: `exit ${result.exit}` }],
    },
  };
}

/** At most `jobs` runs at once, the longest first. */
async function runAll(runs) {
  const queue = [...runs].sort((a, b) => b.ms - a.ms);
  const done = [];
  const worker = async () => {
    for (let run = queue.shift(); run; run = queue.shift()) done.push(await mochaRun(run));
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));
  return done;
}

// The setup (downloads, first run only) and the build (a core for ten seconds) do not need each
// other: they run side by side.
await Promise.all([step('setup', process.execPath, [join(root, 'scripts', 'test-tools.mjs')]), step('build', npm, ['run', '--silent', 'build'])]);
// The type check and the linters need no build and take a core for half a minute: they run beside
// the first specs, and their verdict is printed with the totals.
const checksStarted = Date.now();
const checks = Promise.all([captured('type check', npm, ['run', '--silent', 'typecheck']), captured('lint', npm, ['run', '--silent', 'lint'])]).then(
  (results) => {
    parts.push(`checks ${seconds(Date.now() - checksStarted)} (beside the specs)`);
    return results;
  },
);

const runtimes = [
  // npm test installs the packed package into the add-on's runtime only (test/install); --all into both.
  // and the editor specs run on Node-RED 5 only (EDITOR_SPECS).
  {
    name: 'Node 22 + Node-RED 4.1',
    node: node22,
    env: all ? {} : { TEST_INSTALL_RUNTIMES: 'addon' },
    files: floorRuntimeFiles(specFiles(root), all),
  },
  {
    name: 'Node 24 + Node-RED 5',
    node: node24,
    // The second runtime's subject is Node-RED 5, not Home Assistant: npm test runs its HA examples
    // against the newest generation only (both run on Node 22, and everywhere under --all).
    env: all ? { NODE_RED_RUNTIME: nr5 } : { NODE_RED_RUNTIME: nr5, TEST_HA_GENERATIONS: '2026.10' },
    files: notMatching(all ? specFiles(root) : matching(specFiles(root), RUNTIME_SPECS), NOT_ON_NODE24),
  },
];
if (!existsSync(node24)) {
  console.error(`npm test: ${node24} is missing although test setup ran`);
  process.exit(1);
}
const times = specTimes(root);
// Three runs per job and runtime, taken longest first by whichever job is free: the jobs end close
// together although the measured times are only estimates under a different load.
const planned = runtimes.flatMap((rt) =>
  splitByTime(rt.files, times[rt.name] ?? {}, jobs * 3).map((bin, i, bins) => ({
    ...rt,
    label: `${rt.name}, part ${i + 1} of ${bins.length}`,
    files: bin.files,
    ms: bin.ms,
  })),
);
const specsStarted = Date.now();
console.log(
  `\nnpm test: ${all ? 'every spec on both runtimes' : 'every spec on Node 22, the runtime specs on Node 24'}; ${planned.length} mocha runs, ${jobs} at a time`,
);
const runs = await runAll(planned);
parts.push(`specs ${seconds(Date.now() - specsStarted)}`);
const checked = await checks;
for (const c of checked) process.stdout.write(`\n==== ${c.name} ====\n${c.output}`);
const checksFailed = checked.filter((c) => c.exit !== 0).map((c) => c.name);

// Remember this machine's times per file for the next split (git-ignored).
const measured = structuredClone(times);
for (const r of runs) Object.assign((measured[r.name] ??= {}), r.stats.files ?? {});
mkdirSync(join(root, '.tools'), { recursive: true });
writeFileSync(join(root, '.tools', 'spec-times.json'), JSON.stringify(measured, null, 1));
// CPU per file, children included: on two cores the suite's wall time is its CPU, so these are the
// files to make cheaper first (.tools/spec-cpu.json keeps the whole list).
const cpu = runs.flatMap((r) => Object.entries(r.stats.cpu ?? {}).map(([file, s]) => ({ file: `${file} (${r.name.split(' ')[1]})`, s })));
writeFileSync(join(root, '.tools', 'spec-cpu.json'), JSON.stringify(Object.fromEntries(cpu.map((c) => [c.file, c.s])), null, 1));

const sum = (list, key) => list.reduce((s, r) => s + r.stats[key], 0);
console.log(`\nnpm test${all ? ' (all)' : ''}, both runtimes:`);
for (const rt of runtimes) {
  const mine = runs.filter((r) => r.name === rt.name);
  console.log(`  ${rt.name}: ${rt.files.length} spec files, ${sum(mine, 'passes')} passing, ${sum(mine, 'failures')} failing, ${sum(mine, 'pending')} skipped`);
}
const reasons = [...new Map(runs.flatMap((r) => r.stats.reasons).map((s) => [`${s.what}: ${s.reason}`, s])).keys()];
for (const reason of reasons) console.log(`  skipped ${reason}`);
for (const r of runs) for (const f of r.stats.failed ?? []) console.log(`  failed on ${r.name}: ${f.title} (${f.file})\n    ${f.error}`);
for (const name of checksFailed) console.log(`  failed: ${name} (its output is above)`);
console.log(`  time: ${parts.join(', ')}`);
if (cpu.length) {
  const costliest = cpu.sort((a, b) => b.s - a.s).slice(0, 5);
  console.log(
    `  CPU of the specs: ${cpu.reduce((t, c) => t + c.s, 0).toFixed(0)} s; most: ${costliest.map((c) => `${c.file} ${c.s.toFixed(0)} s`).join(', ')}`,
  );
}
console.log(`tests: ${sum(runs, 'passes')} passed, ${sum(runs, 'failures')} failed, ${sum(runs, 'pending')} skipped`);
process.exit(runs.some((r) => r.exit !== 0) || checksFailed.length ? 1 : 0);
