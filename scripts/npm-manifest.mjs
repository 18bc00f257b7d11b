// The package.json an installed package carries. The clone's package.json holds the build, test and
// bench scripts, some 40 devDependencies and npm's allowScripts list; none of them means anything
// once the package is installed into Node-RED, and the npm page and `npm view` would list them. So
// while `npm pack` / `npm publish` runs, package.json is the published manifest: every field an
// installed package or its npm page uses (name, version, description, keywords, license, engines,
// files, the node-red section, dependencies, and repository/homepage/bugs once they exist), and
// nothing else. npm reads package.json for the tarball after `prepack`. `prepack` writes it (the
// clone's is kept in .tools/), `postpack` puts the clone's back byte for byte; a pack that died in
// between is repaired by the next `prepack` or `--restore`.
//   node scripts/npm-manifest.mjs --write | --restore
import { fileURLToPath } from 'node:url';
import { swapDuringPack } from './pack-swap.mjs';

const PUBLISHED = [
  'name',
  'version',
  'description',
  'keywords',
  'license',
  'author',
  'repository',
  'homepage',
  'bugs',
  'engines',
  'files',
  'node-red',
  'dependencies',
];

/** The manifest as published: the fields above, in the clone's order. */
export function publishedManifest(pkg) {
  return Object.fromEntries(Object.entries(pkg).filter(([key]) => PUBLISHED.includes(key)));
}

function main(root, mode) {
  swapDuringPack(root, 'package.json', 'package.clone.json', mode, (text) => JSON.stringify(publishedManifest(JSON.parse(text)), null, 2) + '\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.cwd(), process.argv[2]);
