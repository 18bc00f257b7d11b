// Brings what the test suite needs that `npm install` does not: the MCP conformance suite with the
// Node 22 it needs, the Home Assistant add-on's runtime (Node 24 + Node-RED 5), and the third-party
// MCP clients of test/interop/. Each goes into a git-ignored folder under .tools/, listed with exact
// versions in test/tools.json. Idempotent: a folder whose stamp matches its list is left alone, so
// only the first `npm test` on a machine downloads anything. Then it names what Debian must bring
// (npm cannot) and which specs are skipped without it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = JSON.parse(readFileSync(join(root, 'test', 'tools.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function install(folder, packages) {
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
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-exact', ...packages], {
    cwd: prefix,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
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
let installed = 0;
for (const [folder, packages] of Object.entries(wanted)) {
  if (folder.startsWith('//')) continue;
  if (install(folder, packages)) installed++;
}
console.log(installed ? `test setup: done in ${seconds(started)}` : 'test setup: .tools/ is up to date');
for (const need of debianNeeds) {
  if (!need.present()) console.log(`test setup: no ${need.what}: ${need.skips} will be skipped (apt-get install -y ${need.apt})`);
}
