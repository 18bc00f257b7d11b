// Stdio servers that ship inside npm packages, named independently of Node-RED's working directory.
// In the Home Assistant add-on Node-RED runs from /opt with its user dir at /config, so a path such
// as `node_modules/x/dist/index.js` resolves nowhere; `module:x` is resolved the way `require` does,
// from the user dir (where the palette manager installs) and from this package's own folder.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { McpServerSettings } from './settings';

const MODULE_PREFIX = 'module:';

/** This package's root folder (dist/src/mcp or src/mcp → up to the folder holding package.json). */
export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * `module:<specifier>` → the file `require.resolve` finds from `searchPaths`; a bare package name
 * without a `main` falls back to its (first) `bin`, which is how most MCP servers are published.
 */
function resolveModuleSpecifier(value: string, searchPaths: string[]): string {
  if (!value.startsWith(MODULE_PREFIX)) return value;
  const specifier = value.slice(MODULE_PREFIX.length).trim();
  const own = ownPackagePath(specifier);
  if (own) return own;
  try {
    return require.resolve(specifier, { paths: searchPaths });
  } catch (err) {
    const bin = binOf(specifier, searchPaths);
    if (bin) return bin;
    throw new Error(
      `Cannot find module "${specifier}" (searched from ${searchPaths.join(', ')}): install it into Node-RED's user directory, e.g. with the palette manager or \`npm install ${packageName(specifier)}\` there`,
      { cause: err },
    );
  }
}

/** Resolves `module:` in the stdio command and arguments; `node` runs on Node-RED's own Node. */
export function resolveStdioCommand(settings: McpServerSettings, searchPaths: string[]): McpServerSettings {
  if (settings.transport !== 'stdio' || !settings.command) return settings;
  const command = settings.command === 'node' ? process.execPath : resolveModuleSpecifier(settings.command, searchPaths);
  const args = (settings.args ?? []).map((a) => resolveModuleSpecifier(a, searchPaths));
  return { ...settings, command, args };
}

// A package cannot require itself by name without an `exports` map, and in this repository
// (npm start, tests) it is not installed under its own name: resolve our own files directly.
function ownPackagePath(specifier: string): string | undefined {
  const root = packageRoot();
  let name: string;
  try {
    name = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).name;
  } catch {
    return undefined;
  }
  if (specifier !== name && !specifier.startsWith(`${name}/`)) return undefined;
  try {
    return require.resolve(join(root, specifier.slice(name.length)));
  } catch {
    return undefined;
  }
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function binOf(specifier: string, searchPaths: string[]): string | undefined {
  if (packageName(specifier) !== specifier) return undefined;
  try {
    const pkgJson = require.resolve(`${specifier}/package.json`, { paths: searchPaths });
    const bin = JSON.parse(readFileSync(pkgJson, 'utf8')).bin;
    const rel = typeof bin === 'string' ? bin : bin && (Object.values(bin)[0] as string | undefined);
    return rel ? join(dirname(pkgJson), rel) : undefined;
  } catch {
    return undefined;
  }
}
