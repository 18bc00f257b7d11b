// The second way the specs start Node-RED: as a user who installed the package starts it, with a
// settings file of its own (no tours, no telemetry, a fixed credential secret, middleware a spec
// adds), the package linked from a folder that may be a packed copy, and optionally another
// runtime (bench/peers.ts: Node-RED beside the other Node-RED MCP client). startNodeRed in
// node-red.ts chooses it when given `installed`; the Node-RED it starts is handled the same way.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// CommonJS helpers shared with scripts/build.mjs and scripts/start.mjs (plain JS, no types here).
const { nodeHelp } = require('../../scripts/node-help.cjs') as { nodeHelp(html: string, type: string): string };
const { PACKAGE_NAME, ROOT } = require('../../scripts/node-red-home.cjs') as { PACKAGE_NAME: string; ROOT: string };

export interface InstalledOptions {
  /** The package root Node-RED loads (package.json and the `npm run build` output). Default: this repository. */
  packageDir?: string;
  /** Another Node-RED runtime to start: the folder holding its node_modules/node-red, and the node binary to run it with. */
  runtime?: { folder: string; node: string };
  /** Options for the node binary itself (bench/peers.ts: --cpu-prof). */
  nodeArgs?: string[];
  /** More node packages installed beside ours (name → folder), as the palette manager would. */
  extraPackages?: Record<string, string>;
  /** Settings that JSON cannot hold (middleware functions): a JavaScript object expression merged into settings.js. */
  settingsCode?: string;
}

/** Prepares the user dir and spawns Node-RED in its own process group (so stopping it reaches its stdio servers). */
export function spawnInstalled(options: InstalledOptions, port: number, env: NodeJS.ProcessEnv | undefined): { child: ChildProcess; userDir: string } {
  const packageDir = options.packageDir ?? ROOT;
  if (!existsSync(join(packageDir, 'dist', 'nodes', 'mcp-server', 'index.js'))) {
    throw new Error(`${packageDir}/dist is missing: run \`npm run build\` first (npm test does)`);
  }
  assertBuildCurrent(packageDir);
  const userDir = mkdtempSync(join(tmpdir(), 'mcp-editor-nr-'));
  mkdirSync(join(userDir, 'node_modules'));
  symlinkSync(packageDir, join(userDir, 'node_modules', PACKAGE_NAME), 'dir');
  for (const [name, folder] of Object.entries(options.extraPackages ?? {})) symlinkSync(resolve(folder), join(userDir, 'node_modules', name), 'dir');
  const settingsFile = join(userDir, 'settings.js');
  const settings = {
    uiHost: '127.0.0.1',
    uiPort: port,
    flowFile: 'flows.json',
    credentialSecret: 'editor-test',
    // No first-run tour or "share usage data" prompt covering the canvas.
    editorTheme: { tours: false, projects: { enabled: false } },
    telemetry: { enabled: false },
    diagnostics: { enabled: false },
    logging: { console: { level: 'info', metrics: false, audit: false } },
  };
  const extra = options.settingsCode ? `Object.assign(module.exports, ${options.settingsCode});\n` : '';
  writeFileSync(settingsFile, `module.exports = ${JSON.stringify(settings, null, 2)};\n${extra}`);
  const redJs: string = options.runtime
    ? require.resolve('node-red/red.js', { paths: [options.runtime.folder] })
    : require('../../scripts/node-red-home.cjs').RED_JS; // Node-RED 5 in npm test's second run
  const child = spawn(options.runtime?.node ?? process.execPath, [...(options.nodeArgs ?? []), redJs, '--userDir', userDir, '--settings', settingsFile], {
    cwd: userDir,
    env: { ...process.env, ...env, NODE_RED_HOME: userDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return { child, userDir };
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
