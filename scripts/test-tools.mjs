// Brings what the test suite needs that `npm install` does not: the MCP conformance suite with the
// Node 22 it needs, the Home Assistant add-on's runtime (Node 24 + Node-RED 5), and the third-party
// MCP clients of test/interop/. Each goes into a git-ignored folder under .tools/, listed with exact
// versions in test/tools.json. Idempotent: a folder whose stamp matches its list is left alone, so
// only the first `npm test` on a machine downloads anything. The folders install at once: each
// install waits mostly on the registry, and side by side they took 50 s on a fresh npm cache where
// one after another took 102 s. Then it names what Debian must bring (npm cannot) and which specs
// are skipped without it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = JSON.parse(readFileSync(join(root, 'test', 'tools.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

async function install(folder, packages) {
  const prefix = join(root, '.tools', folder);
  const stampFile = join(prefix, 'installed.json');
  const stamp = JSON.stringify(packages);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return false;
  const started = Date.now();
  console.log(`test setup: installing ${packages.join(' ')} into .tools/${folder} ...`);
  rmSync(prefix, { recursive: true, force: true }); // a half-done or older install is not patched over
  mkdirSync(prefix, { recursive: true });
  // The folder's own package.json makes npm install there, never into the project's node_modules.
  writeFileSync(join(prefix, 'package.json'), JSON.stringify({ name: `tools-${folder}`, private: true }, null, 2) + '\n');
  const args = ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...packages];
  const exit = await new Promise((resolve) => {
    const child = spawn(npm, args, { cwd: prefix, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
  if (exit !== 0) throw new Error(`test setup: installing into .tools/${folder} failed (npm exit ${exit}); run npm test again to retry`);
  writeFileSync(stampFile, stamp);
  console.log(`test setup: .tools/${folder} ready in ${seconds(started)}`);
  return true;
}

function postgresInstalled() {
  const dir = '/usr/lib/postgresql';
  return existsSync(dir) && readdirSync(dir).some((v) => existsSync(join(dir, v, 'bin', 'initdb')));
}

/** What only Debian brings: the specs that need it are skipped (and counted) when it is missing. */
export const debianNeeds = [
  {
    what: 'Chromium',
    present: () => existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium'),
    apt: 'chromium',
    skips: 'the editor and sign-in specs in a real browser',
  },
  {
    what: 'PostgreSQL',
    present: () => Boolean(process.env.TODO_TEST_DATABASE_URL) || postgresInstalled(),
    apt: 'postgresql',
    skips: "the todo server's run against a real PostgreSQL server",
  },
];

const started = Date.now();
const folders = Object.entries(wanted).filter(([folder]) => !folder.startsWith('//'));
const results = await Promise.allSettled(folders.map(([folder, packages]) => install(folder, packages)));
const failed = results.filter((r) => r.status === 'rejected');
for (const f of failed) console.error(f.reason.message);
if (failed.length) process.exit(1);
const installed = results.filter((r) => r.value).length;
console.log(installed ? `test setup: done in ${seconds(started)}` : 'test setup: .tools/ is up to date');
for (const need of debianNeeds) {
  if (!need.present()) console.log(`test setup: no ${need.what}: ${need.skips} will be skipped (apt-get install -y ${need.apt})`);
}
