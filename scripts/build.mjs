// Compiles src/ and nodes/ to dist/ and copies what Node-RED loads beside the compiled nodes:
// the editor HTML, the locale catalogues and the icons (the registry looks in <node dir>/icons).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, readdirSync, mkdirSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(pathToFileURL(join(root, 'package.json'))).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

const nodesOut = join(dist, 'nodes');
mkdirSync(nodesOut, { recursive: true });
for (const f of readdirSync(join(root, 'nodes'))) {
  if (f.endsWith('.html')) cpSync(join(root, 'nodes', f), join(nodesOut, f));
}
cpSync(join(root, 'nodes', 'locales'), join(nodesOut, 'locales'), { recursive: true });
if (existsSync(join(root, 'icons'))) cpSync(join(root, 'icons'), join(nodesOut, 'icons'), { recursive: true });
console.log('built dist/');
