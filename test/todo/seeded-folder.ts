// A todo server's embedded-database folder as the server leaves it after its first start, without
// paying for that start again. Creating a PGlite cluster (initdb in WebAssembly) costs about 9 s of
// CPU; opening an existing one about 1 s. On a 2-core machine the suite's time is its CPU, and a
// dozen specs need a fresh folder each, so they get a copy of one cluster created once per machine
// and PGlite version (.tools/, git-ignored). The first start on an empty folder stays covered where
// it is the subject: the PGlite contract over stdio and the installed package's todo assistant.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './todo-server-process';

const PGLITE_VERSION = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')).version as string;
const TEMPLATE = join(REPO_ROOT, '.tools', `todo-folder-pglite-${PGLITE_VERSION}`);

// Runs in a process of its own: PGlite creates the cluster, closes it, and the folder is complete.
const CREATE = `import('@electric-sql/pglite').then(async ({ PGlite }) => (await PGlite.create(process.argv[1])).close())`;

let template: Promise<string> | undefined;

function createTemplate(): Promise<string> {
  if (existsSync(join(TEMPLATE, 'PG_VERSION'))) return Promise.resolve(TEMPLATE);
  // Parallel mocha processes may both create one: each in a folder of its own, the first rename wins.
  const building = `${TEMPLATE}.${process.pid}`;
  return new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CREATE, building], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors += d));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`creating the PGlite template failed (exit ${code}): ${errors}`));
      try {
        renameSync(building, TEMPLATE);
      } catch {
        rmSync(building, { recursive: true, force: true }); // another process was first
      }
      resolve(TEMPLATE);
    });
  });
}

/** A new temporary folder holding a freshly created, empty todo database (delete it when done). */
export async function seededTodoFolder(prefix = 'todo-seeded-'): Promise<string> {
  template ??= createTemplate().catch((err) => {
    template = undefined;
    throw err;
  });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cpSync(await template, dir, { recursive: true });
  return dir;
}
