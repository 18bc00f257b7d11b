// Builds what Node-RED loads into dist/:
// - tsc compiles the engine (src/), the node adapters (nodes/*/index.ts and what they import) and
//   the MCP servers (servers/) to CommonJS, which esbuild then bundles with the libraries they use
//   (scripts/bundle-runtime.mjs): one runtime bundle, a one-line index.js per node, one per server;
// - each node's dialog is put together from its folder: editor.ts bundled by esbuild (with what it
//   imports from nodes/shared/editor/ and the settings declarations in src/) into one script, then
//   editor.html as the form and help.html as the help (scripts/node-help.cjs), into dist/nodes/<type>/index.html, where the
//   registry looks for the HTML of dist/nodes/<type>/index.js;
// - locale.json becomes dist/nodes/<type>/locales/en-US/index.json (the registry's catalogue path);
// - the documentation is rendered into resources/docs/ (scripts/build-docs.mjs), where the editor
//   serves it to the help's links;
// - each icon goes beside the node that shows it (the registry serves every icon folder of the
//   package to every node, so each icon is copied once).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildDocs } from './build-docs.mjs';
import { bundleRuntime } from './bundle-runtime.mjs';
import { STAMP } from './build-state.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const requireHere = createRequire(pathToFileURL(join(root, 'package.json')));
const { nodeHelp } = requireHere('./scripts/node-help.cjs');
const esbuild = requireHere('esbuild');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
execFileSync(process.execPath, [requireHere.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

const types = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))['node-red'].nodes);
const iconsLeft = new Set(readdirSync(join(root, 'icons')));
for (const type of types) {
  const src = join(root, 'nodes', type);
  const out = join(dist, 'nodes', type);
  mkdirSync(join(out, 'locales', 'en-US'), { recursive: true });
  const bundle = esbuild.buildSync({
    entryPoints: [join(src, 'editor.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
  }).outputFiles[0].text;
  const read = (name) => readFileSync(join(src, name), 'utf8').trimEnd();
  writeFileSync(
    join(out, 'index.html'),
    [
      `<script type="text/javascript">\n${bundle}</script>`,
      `<script type="text/html" data-template-name="${type}">\n${read('editor.html')}\n</script>`,
      `<script type="text/html" data-help-name="${type}">\n${nodeHelp(read('help.html'), type)}\n</script>`,
      '',
    ].join('\n'),
  );
  cpSync(join(src, 'locale.json'), join(out, 'locales', 'en-US', 'index.json'));
  const icon = /\bicon:\s*'([^']+\.svg)'/.exec(read('editor.ts'))?.[1];
  if (icon && iconsLeft.delete(icon)) cpSync(join(root, 'icons', icon), join(out, 'icons', icon));
}
// The strings several nodes share (nodes/shared/locale.json), read by nodes/shared/i18n.ts.
cpSync(join(root, 'nodes', 'shared', 'locale.json'), join(dist, 'nodes', 'shared', 'locale.json'));
// Icons no node shows by name (config nodes have none in the palette) stay available all the same.
for (const icon of iconsLeft) cpSync(join(root, 'icons', icon), join(dist, 'nodes', types[0], 'icons', icon));
if (!existsSync(join(dist, 'nodes', types[0]))) throw new Error('build: no node was assembled');
const bundled = await bundleRuntime(root, esbuild, types);
const docs = buildDocs(root);
writeFileSync(join(root, STAMP), `${new Date().toISOString()}\n`);
console.log(
  `built dist/: ${types.length} nodes in one runtime bundle (${(bundled.runtimeBytes / 1048576).toFixed(1)} MB, ${bundled.libraries} libraries inside), ${bundled.servers} MCP servers; resources/docs/: ${docs.pages} pages and ${docs.nodes} help pages`,
);
