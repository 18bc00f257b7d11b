// One folder under .tools/ (git-ignored) with exact npm packages in it, installed once: a folder whose
// stamp names the same list is left alone, a half-done or older one is replaced. Used by
// scripts/test-tools.mjs (everything the suite needs) and scripts/start.mjs (Node 22 on a machine
// whose Node is older).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Installs `packages` into .tools/<folder> unless its stamp already names them; true when it installed. */
export async function installToolFolder(root, folder, packages, who) {
  const prefix = join(root, '.tools', folder);
  const stampFile = join(prefix, 'installed.json');
  const stamp = JSON.stringify(packages);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return false;
  const started = Date.now();
  console.log(`${who}: installing ${packages.join(' ')} into .tools/${folder} ...`);
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
  if (exit !== 0) throw new Error(`${who}: installing into .tools/${folder} failed (npm exit ${exit}); run the command again to retry`);
  writeFileSync(stampFile, stamp);
  console.log(`${who}: .tools/${folder} ready in ${seconds(started)}`);
  return true;
}
