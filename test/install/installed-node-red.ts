// What a user does: `npm pack`, the tarball installed with `--omit=dev` into a fresh Node-RED user
// dir (as the palette manager does), and the real red.js started from a working directory that is
// neither the user dir nor this repository. Two runtimes: the floor (Node 22 + Node-RED 4.1, the
// devDependency) and the Home Assistant add-on's (Node 24 + Node-RED 5, in .tools/nr5 from scripts/test-tools.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { attachNodeRed, type NodeRedProcess } from '../helpers/node-red';
import { freePort } from '../peers/free-port';
import { publishedManifest } from '../../scripts/npm-manifest.mjs';
import { npmReadme } from '../../scripts/npm-readme.mjs';

export const ROOT = join(__dirname, '..', '..');
const NR5 = join(ROOT, '.tools', 'nr5', 'node_modules');

export interface Runtime {
  name: string;
  node: string;
  redJs: string;
  /** Why it cannot run here, if it cannot. */
  missing?: string;
}

/**
 * The runtimes to install into: both, unless TEST_INSTALL_RUNTIMES=addon (`npm test`, which keeps
 * the add-on's runtime, where palette installs happen; `npm run test:all` and CI install into both).
 */
export function runtimes(): Runtime[] {
  const nr5: Runtime = { name: 'Node 24 + Node-RED 5', node: join(NR5, '.bin', 'node'), redJs: join(NR5, 'node-red', 'red.js') };
  if (!existsSync(nr5.redJs) || !existsSync(nr5.node))
    nr5.missing = 'Node 24 + Node-RED 5 are not installed in .tools/nr5 (npm test installs them: node scripts/test-tools.mjs)';
  if (process.env.TEST_INSTALL_RUNTIMES === 'addon') return [nr5];
  return [{ name: 'Node 22 + Node-RED 4.1', node: process.execPath, redJs: require.resolve('node-red/red.js') }, nr5];
}

let tarball: string | undefined;

/**
 * The tarball `npm pack` makes of the built package (dist/ must be current: `npm test` builds
 * first), as prepack shapes it for publishing: the npm page's README (scripts/npm-readme.mjs) and
 * the published manifest (scripts/npm-manifest.mjs). They are written into a staging copy of the
 * packed files, not into the clone, so specs running beside this one read the clone's files.
 */
export function packOnce(): string {
  if (tarball && existsSync(tarball)) return tarball;
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gemini-pack-'));
  // One tarball serves the whole test process; it goes with the process.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const staging = join(dir, 'package');
  for (const file of packContents().files) {
    mkdirSync(dirname(join(staging, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(staging, file));
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(staging, 'package.json'), JSON.stringify(publishedManifest(pkg), null, 2) + '\n');
  writeFileSync(join(staging, 'README.md'), npmReadme(readFileSync(join(ROOT, 'README.md'), 'utf8'), pkg));
  const out = execFileSync('npm', ['pack', staging, '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' });
  const info = packJson(out);
  tarball = join(dir, info.filename);
  return tarball;
}

/** The files `npm pack` puts into the tarball, with the tarball's size. */
export function packContents(): { files: string[]; size: number; unpackedSize: number } {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' });
  const info = packJson(out);
  return { files: info.files.map((f: { path: string }) => f.path), size: info.size, unpackedSize: info.unpackedSize };
}

// npm 11 still runs `prepare` (our build) under --ignore-scripts and prints its output first.
function packJson(out: string): any {
  return JSON.parse(out.slice(out.indexOf('[')))[0];
}

/** A fresh user dir with the tarball installed as the palette manager installs it. */
export function installFresh(tgz: string): string {
  const userDir = mkdtempSync(join(tmpdir(), 'mcp-gemini-userdir-'));
  writeFileSync(
    join(userDir, 'package.json'),
    JSON.stringify({ name: 'node-red-project', description: 'A Node-RED Project', version: '0.0.1', private: true }),
  );
  execFileSync('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', tgz], { cwd: userDir, stdio: 'pipe' });
  writeFileSync(
    join(userDir, 'settings.js'),
    `module.exports = { uiHost: '127.0.0.1', credentialSecret: 'install-test', flowFile: 'flows.json', debugMaxLength: 20000,
  externalModules: { autoInstall: false }, telemetry: { enabled: false }, editorTheme: { tours: false } };\n`,
  );
  return userDir;
}

/** The packages npm installed under `modules` (every folder with a package.json naming a package, nested ones too). */
export function packageCount(modules: string): number {
  let count = 0;
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@') ? readdirSync(join(modules, entry.name)).map((n) => join(modules, entry.name, n)) : [join(modules, entry.name)];
    for (const dir of dirs) {
      if (existsSync(join(dir, 'package.json'))) count++;
      if (existsSync(join(dir, 'node_modules'))) count += packageCount(join(dir, 'node_modules'));
    }
  }
  return count;
}

/** Bytes under `dir` (what `du` would count, without following links). */
export function diskSize(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) total += diskSize(p);
    else if (entry.isFile()) total += statSync(p).size;
  }
  return total;
}

export type InstalledNodeRed = NodeRedProcess;

/** red.js of `runtime` on `userDir`, started from `/` with a bare environment (no GEMINI_API_KEY, no HA_*). */
export async function startInstalled(runtime: Runtime, userDir: string): Promise<InstalledNodeRed> {
  const port = await freePort();
  const env = { PATH: `${dirname(runtime.node)}:/usr/local/bin:/usr/bin:/bin`, HOME: userDir, LANG: 'C.UTF-8' };
  const child = spawn(runtime.node, [runtime.redJs, '--userDir', userDir, '--port', String(port)], {
    cwd: '/',
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return attachNodeRed(child, { port, userDir, readyMs: 90_000 });
}

export function removeDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
