// `npm run test:stress`: the specs most sensitive to a busy machine (the browser, scaling and voice
// specs by default), again and again while a second process keeps one core busy, until one round fails or all
// have passed. It prints one line per round and a verdict; a flaky spec shows up here first.
//   STRESS_ROUNDS (default 10), STRESS_SPECS (comma-separated globs), STRESS_LOAD=0 for no extra load.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.env.STRESS_ROUNDS) || 10;
const specs = process.env.STRESS_SPECS || 'test/browser/**/*.test.ts,test/scaling/**/*.test.ts,test/voice/**/*.test.ts';
const load = process.env.STRESS_LOAD !== '0';

// The second load: a process that spins a core, as another build or test run would.
const burner = load ? spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random())'], { stdio: 'ignore' }) : undefined;
burner?.unref();
const stop = () => burner?.kill('SIGKILL');
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));

console.log(`test:stress: ${specs}, ${rounds} rounds${load ? ', one core kept busy' : ''}`);
let passed = 0;
for (let round = 1; round <= rounds; round++) {
  const started = Date.now();
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--no-color', '--reporter', 'dot'], {
    cwd: root,
    env: { ...process.env, MOCHA_SPEC: specs, MOCHA_IGNORE: '' },
    encoding: 'utf8',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (result.status !== 0) {
    process.stdout.write(result.stdout + result.stderr);
    console.log(`test:stress: round ${round} failed after ${seconds} s; ${passed} rounds passed before it`);
    process.exit(1);
  }
  passed++;
  console.log(`test:stress: round ${round} passed in ${seconds} s`);
}
console.log(`test:stress: all ${rounds} rounds passed`);
process.exit(0);
