// Whether dist/ was built from the sources as they are now: `npm start` and `npm run spec` build
// first when it was not, so nobody runs yesterday's dialogs (install no longer builds: see prepack).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Written by scripts/build.mjs when a build ends. */
export const STAMP = join('dist', '.build-stamp');
const BUILD_SCRIPTS = ['build.mjs', 'build-docs.mjs', 'bundle-runtime.mjs', 'sdk-patches.mjs', 'node-help.cjs'].map((f) => join('scripts', f));
const SOURCES = ['src', 'nodes', 'servers', 'docs', 'icons', 'examples', 'package.json', 'README.md', ...BUILD_SCRIPTS];

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0);
}

/** Why dist/ must be rebuilt ('' when it is current). */
export function staleBecause(root) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return 'dist/ has not been built yet';
  const built = statSync(stamp).mtimeMs;
  const changed = SOURCES.map((s) => join(root, s)).find((p) => existsSync(p) && newest(p) > built);
  return changed ? `${changed.slice(root.length + 1)} changed since the last build` : '';
}
