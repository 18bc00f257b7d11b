// Turns tsc's output in dist/ into what is installed: one bundle for the runtime and one per MCP
// server, with the libraries they use inside, so a palette install does not fetch and unpack those
// libraries' every build, type and map (the package was 103 MB in node_modules before this).
// - dist/nodes/shared/runtime.js: every node adapter, the engine (src/) and the libraries. It sits
//   where nodes/shared/ compiles to, so what finds files beside itself (__dirname in i18n.ts, the
//   package root in module-specifier.ts) finds the same files as before.
// - dist/nodes/<type>/index.js: what Node-RED loads, one line taking that node from the bundle, so
//   module state (one listener registry, one admin-route set) is shared as it was.
// - dist/servers/<name>/main.js: each MCP server the nodes start as a child process, bundled alone.
// - PGlite (the todo server's embedded Postgres) is bundled into the todo server too: its CommonJS
//   build finds pglite.wasm, initdb.wasm and pglite.data beside the file that holds its code, so the
//   build copies those three there; its extension archives (12 MB) are not needed and not shipped.
// - dist/THIRD-PARTY-NOTICES.txt: the licence of every library inside a bundle.
// - The MCP SDK gets the fixes in scripts/sdk-patches.mjs while it is bundled, and every bundle the
//   cheaper name helper of scripts/cheaper-names.mjs.
// What stays installed from npm: what loads files of its own at run time or is loaded as native ESM
// (EXTERNAL below), declared in package.json's dependencies.
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SDK_PATCHES, sdkPatchPlugin } from './sdk-patches.mjs';
import { cheaperNames } from './cheaper-names.mjs';

export const EXTERNAL = [
  // Opus codec: a native build or its WebAssembly, loaded from its own folder.
  '@evan/opus',
  // ws's optional native speed-ups: ws works without them, and checks for them itself.
  'bufferutil',
  'utf-8-validate',
];

/** The oldest Node.js the package runs on (package.json's engines says the same). */
export const NODE_FLOOR = 22;

// What every node stub loads first: on a Node older than the floor, Node-RED gets one plain
// sentence in its log (once, not once per node type) and no node types, so it waits for them
// instead of failing inside a library; the bundle itself is not even loaded.
const NODE_FLOOR_STUB = `// Node types load only on Node.js ${NODE_FLOOR} or later (scripts/bundle-runtime.mjs).
let said = false;
module.exports = function nodeType(type) {
  if (Number(process.versions.node.split('.')[0]) >= ${NODE_FLOOR}) return require('./runtime.js')[type];
  return function (RED) {
    if (said) return;
    said = true;
    RED.log.error('node-red-contrib-mcp-gemini needs Node.js ${NODE_FLOOR} or later, and this Node-RED runs on Node.js ' + process.versions.node + ': its nodes are not loaded. Upgrade Node.js (the Home Assistant add-on ships Node.js 24), then restart Node-RED.');
  };
};
`;

/** What PGlite's Node build loads at run time, relative to its code. */
const PGLITE_FILES = ['pglite.wasm', 'initdb.wasm', 'pglite.data'];

function requireFrom(root) {
  return createRequire(join(root, 'package.json'));
}

export async function bundleRuntime(root, esbuild, types) {
  const dist = join(root, 'dist');
  const entry = join(dist, 'nodes', 'shared', 'runtime-entry.js');
  // Besides the node types: what settings.js may require (skip-editor-parsing.ts), in the same bundle
  // so that it and the endpoint nodes share one module state.
  const extras = { skipEditorParsing: 'mcp-endpoint/skip-editor-parsing.js' };
  writeFileSync(
    entry,
    `module.exports = {\n${types.map((t) => `  '${t}': require('../${t}/index.js'),`).join('\n')}\n${Object.entries(extras)
      .map(([k, f]) => `  ${k}: require('../${f}'),`)
      .join('\n')}\n};\n`,
  );
  const inputs = new Set();
  const applied = new Map();
  const bundle = async (entryPoint, outfile) => {
    const result = await esbuild.build({
      entryPoints: [entryPoint],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: `node${NODE_FLOOR}`,
      external: EXTERNAL,
      // Readable stack traces: whitespace and syntax minified, names kept. BUNDLE_READABLE=1 keeps
      // the whitespace too, so a CPU profile (npm run bench:peers with BENCH_CPU_PROF) has lines.
      minifyWhitespace: process.env.BUNDLE_READABLE !== '1',
      minifySyntax: true,
      keepNames: true,
      legalComments: 'none', // the licences go to THIRD-PARTY-NOTICES.txt whole
      metafile: true,
      allowOverwrite: true,
      logLevel: 'warning',
      plugins: [sdkPatchPlugin(applied, join(dist, 'src'))],
    });
    for (const input of Object.keys(result.metafile.inputs)) inputs.add(input);
    writeFileSync(outfile, cheaperNames(readFileSync(outfile, 'utf8'), outfile));
  };
  const runtime = join(dist, 'nodes', 'shared', 'runtime.js');
  await bundle(entry, runtime + '.tmp');
  for (const patch of SDK_PATCHES) {
    if (![...applied.keys()].some((k) => k.startsWith(patch.name)))
      throw new Error(`SDK patch "${patch.name}" found nothing to patch: look at scripts/sdk-patches.mjs`);
  }
  const servers = readdirSync(join(dist, 'servers')).filter((s) => existsSync(join(dist, 'servers', s, 'main.js')));
  for (const s of servers) await bundle(join(dist, 'servers', s, 'main.js'), join(dist, 'servers', s, 'main.js.tmp'));

  // Keep only the bundles, the node stubs and what is not JavaScript (catalogues, dialogs, icons).
  rmSync(join(dist, 'src'), { recursive: true, force: true });
  for (const file of walk(join(dist, 'nodes')).concat(walk(join(dist, 'servers')))) if (file.endsWith('.js')) rmSync(file);
  renameSync(runtime + '.tmp', runtime);
  for (const s of servers) renameSync(join(dist, 'servers', s, 'main.js.tmp'), join(dist, 'servers', s, 'main.js'));
  const pglite = join(dirname(requireFrom(root).resolve('@electric-sql/pglite')));
  for (const file of PGLITE_FILES) cpSync(join(pglite, file), join(dist, 'servers', 'todo', file));
  writeFileSync(join(dist, 'nodes', 'shared', 'node-floor.js'), NODE_FLOOR_STUB);
  for (const type of types) {
    writeFileSync(
      join(dist, 'nodes', type, 'index.js'),
      `// The ${type} node, from the runtime bundle (scripts/bundle-runtime.mjs), on Node ${NODE_FLOOR} or later.\nmodule.exports = require('../shared/node-floor.js')('${type}');\n`,
    );
  }
  for (const [key, file] of Object.entries(extras)) {
    writeFileSync(
      join(dist, 'nodes', file),
      `// From the runtime bundle (scripts/bundle-runtime.mjs).\nmodule.exports = require('../shared/runtime.js').${key};\n`,
    );
  }
  const notices = thirdPartyNotices(root, inputs);
  writeFileSync(join(dist, 'THIRD-PARTY-NOTICES.txt'), notices.text);
  return { runtimeBytes: statSync(runtime).size, servers: servers.length, libraries: notices.count };
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Every package a bundle took code from, with its licence file. */
function thirdPartyNotices(root, inputs) {
  const packages = new Map();
  for (const input of inputs) {
    const parts = input.split(/[\\/]/);
    const at = parts.lastIndexOf('node_modules');
    if (at < 0) continue;
    const nameParts = parts[at + 1].startsWith('@') ? parts.slice(at + 1, at + 3) : parts.slice(at + 1, at + 2);
    const dir = join(root, ...parts.slice(0, at + 1), ...nameParts);
    if (packages.has(dir)) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    packages.set(dir, {
      name: pkg.name,
      version: pkg.version,
      license: pkg.license,
      text: licenceFile ? readFileSync(join(dir, licenceFile), 'utf8').trim() : '',
    });
  }
  const list = [...packages.values()].sort((a, b) => a.name.localeCompare(b.name));
  const text =
    'Libraries bundled into dist/ by scripts/bundle-runtime.mjs, with their licences.\n\n' +
    list
      .map(
        (p) =>
          `${'='.repeat(72)}\n${p.name}@${p.version} (${p.license ?? 'see text'})\n${'='.repeat(72)}\n${p.text || '(no licence file in the package; see its package.json)'}\n`,
      )
      .join('\n');
  return { text, count: list.length };
}
