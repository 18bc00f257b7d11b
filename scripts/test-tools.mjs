// Brings what the test suite needs that `npm install` does not: Node 22 (the floor runtime), the MCP
// conformance suite, the Home Assistant add-on's runtime (Node 24 + Node-RED 5), and the third-party
// MCP clients of test/interop/. Each goes into a git-ignored folder under .tools/, listed with exact
// versions in test/tools.json. Idempotent: a folder whose stamp matches its list is left alone, so
// only the first `npm test` on a machine downloads anything. The folders install at once: each
// install waits mostly on the registry, and side by side they took 50 s on a fresh npm cache where
// one after another took 102 s. Then it names what Debian must bring (npm cannot) and which specs
// are skipped without it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installToolFolder, seconds } from './tool-folders.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const wanted = JSON.parse(readFileSync(join(root, 'test', 'tools.json'), 'utf8'));

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
const results = await Promise.allSettled(folders.map(([folder, packages]) => installToolFolder(root, folder, packages, 'test setup')));
const failed = results.filter((r) => r.status === 'rejected');
for (const f of failed) console.error(f.reason.message);
if (failed.length) process.exit(1);
const installed = results.filter((r) => r.value).length;
console.log(installed ? `test setup: done in ${seconds(started)}` : 'test setup: .tools/ is up to date');
for (const need of debianNeeds) {
  if (!need.present()) console.log(`test setup: no ${need.what}: ${need.skips} will be skipped (apt-get install -y ${need.apt})`);
}
