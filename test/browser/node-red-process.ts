// A real Node-RED, started the way a user starts it (node-red/red.js with a userDir), with this
// package installed in that userDir's node_modules as a symlink to the built package. The editor
// test drives it through Chromium, so nothing here is the test helper's in-process runtime.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../peers/free-port';
import { attachNodeRed } from '../examples/node-red-process';

// CommonJS helper shared with scripts/build.mjs: a node's help as the build writes it.
const { nodeHelp } = require('../../scripts/node-help.cjs') as { nodeHelp(html: string, type: string): string };

export interface NodeRedProcess {
  url: string;
  userDir: string;
  /** The Node-RED process (bench/peers.ts reads its CPU time from /proc). */
  pid: number;
  /** Everything Node-RED printed, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

const PACKAGE_NAME = 'node-red-contrib-mcp-gemini';

/**
 * packageDir: the package root Node-RED loads (must hold package.json and the `npm run build` output
 * in dist/). Default: this repository.
 */
export interface StartOptions {
  /** More environment for the Node-RED process. */
  env?: Record<string, string>;
  /** Another Node-RED runtime to start: the folder holding its node_modules/node-red, and the node binary to run it with. */
  runtime?: { folder: string; node: string };
  /** Options for the node binary itself (bench/peers.ts: --cpu-prof). */
  nodeArgs?: string[];
  /** More node packages installed beside ours (name → folder), as the palette manager would. */
  extraPackages?: Record<string, string>;
  /** Settings that JSON cannot hold (middleware functions): a JavaScript object expression merged into settings.js. */
  settingsCode?: string;
}

export async function startNodeRed(packageDir = resolve(__dirname, '../..'), options: StartOptions = {}): Promise<NodeRedProcess> {
  if (!existsSync(join(packageDir, 'dist', 'nodes', 'mcp-server', 'index.js'))) {
    throw new Error(`${packageDir}/dist is missing: run \`npm run build\` first (npm test does)`);
  }
  assertBuildCurrent(packageDir);
  const userDir = mkdtempSync(join(tmpdir(), 'mcp-editor-nr-'));
  mkdirSync(join(userDir, 'node_modules'));
  symlinkSync(packageDir, join(userDir, 'node_modules', PACKAGE_NAME), 'dir');
  for (const [name, folder] of Object.entries(options.extraPackages ?? {})) symlinkSync(resolve(folder), join(userDir, 'node_modules', name), 'dir');
  const port = await freePort();
  const settingsFile = join(userDir, 'settings.js');
  writeFileSync(
    settingsFile,
    `module.exports = ${JSON.stringify(
      {
        uiHost: '127.0.0.1',
        uiPort: port,
        flowFile: 'flows.json',
        credentialSecret: 'editor-test',
        // No first-run tour or "share usage data" prompt covering the canvas.
        editorTheme: { tours: false, projects: { enabled: false } },
        telemetry: { enabled: false },
        diagnostics: { enabled: false },
        logging: { console: { level: 'info', metrics: false, audit: false } },
      },
      null,
      2,
    )};\n${options.settingsCode ? `Object.assign(module.exports, ${options.settingsCode});\n` : ''}`,
  );

  const redJs: string = options.runtime
    ? require.resolve('node-red/red.js', { paths: [options.runtime.folder] })
    : require('../../scripts/node-red-home.cjs').RED_JS; // Node-RED 5 in npm test's second run
  // Its own process group (detached), so stopping it reaches the stdio MCP servers it started too.
  const child: ChildProcess = spawn(
    options.runtime?.node ?? process.execPath,
    [...(options.nodeArgs ?? []), redJs, '--userDir', userDir, '--settings', settingsFile],
    { cwd: userDir, env: { ...process.env, ...options.env, NODE_RED_HOME: userDir }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  // Started, read and stopped as the example tests' Node-RED is (one lifecycle for every spec).
  const nr = await attachNodeRed(child, { port, userDir, onStop: () => rmSync(userDir, { recursive: true, force: true }) });
  const log = () => nr.log.join('\n');
  try {
    await assertOurNodesLoaded(nr.url, log);
  } catch (err) {
    await nr.stop();
    throw err;
  }
  return { url: nr.url + '/', userDir, pid: nr.pid, log, stop: () => nr.stop() };
}

/** Node-RED starts even when a package fails to load: the editor tests need ours in the palette. */
async function assertOurNodesLoaded(url: string, log: () => string): Promise<void> {
  const res = await fetch(url + '/nodes', { headers: { Accept: 'application/json' } });
  const sets = (await res.json()) as Array<{ module: string; types: string[] }>;
  const ours = sets.filter((s) => s.module === PACKAGE_NAME).flatMap((s) => s.types);
  if (!ours.includes('mcp-server')) throw new Error(`Node-RED runs without our nodes:\n${log()}`);
}

/** The editor runs dist/nodes/<type>/index.html: a stale build would test yesterday's dialogs. */
function assertBuildCurrent(packageDir: string): void {
  const sources = join(packageDir, 'nodes');
  if (!existsSync(sources)) return; // a packed copy without sources
  for (const type of readdirSync(sources).filter((n) => existsSync(join(sources, n, 'editor.ts')))) {
    const built = join(packageDir, 'dist', 'nodes', type, 'index.html');
    const stale =
      !existsSync(built) ||
      [
        readFileSync(join(sources, type, 'editor.html'), 'utf8').trimEnd(),
        nodeHelp(readFileSync(join(sources, type, 'help.html'), 'utf8').trimEnd(), type),
      ].some((part) => !readFileSync(built, 'utf8').includes(part)) ||
      statSync(join(sources, type, 'editor.ts')).mtimeMs > statSync(built).mtimeMs;
    if (stale) throw new Error(`dist/nodes/${type}/index.html is older than nodes/${type}/: run \`npm run build\` first (npm test does)`);
  }
}

/** A full deploy through the admin API (flows with their credentials), as the editor's Deploy does; throws on refusal. */
export async function deployFlows(nodeRed: { url: string }, flows: unknown[]): Promise<void> {
  const res = await fetch(`${nodeRed.url}flows`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Node-RED-Deployment-Type': 'full', 'Node-RED-API-Version': 'v2' },
    body: JSON.stringify({ flows }),
  });
  if (res.status !== 200) throw new Error(`deploy failed: HTTP ${res.status} ${await res.text()}`);
}
