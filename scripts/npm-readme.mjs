// The README as the npm page shows it. In the repository the README links into docs/ with relative
// links, which work on a clone and on a code host. npm's page resolves relative links only against the
// repository package.json names, and this package names none yet, so on npmjs.com (and in the
// Node-RED flow library, which shows the same README) every docs link and the screenshot would be
// broken. So while `npm pack` / `npm publish` runs, the README in the tarball gets absolute links to
// the same files inside the published package, served by jsDelivr's npm CDN:
// - docs/images/X → resources/docs/images/X (the images the editor serves; shown inline on the page),
// - docs/X.md, LICENSE → the same file in the package (docs/*.md are packed for this).
// Once package.json names a `repository`, npm resolves the relative links itself and links are not
// rewritten. The npm page is where palette users meet the package, so it opens with what the package
// does and how to install it from the palette; the clone's two commands (between the README's
// clone-commands markers, first in the clone's README) move to their own heading before the first
// section. `prepack` writes the npm README (the clone's is kept in .tools/), `postpack` puts the
// clone's back; a pack that died in between is repaired by the next `prepack` or `--restore`.
//   node scripts/npm-readme.mjs --write | --restore
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { swapDuringPack } from './pack-swap.mjs';
import { fileURLToPath } from 'node:url';

/** Where the package's own files are served from on the web, for this version. */
export function packageBase(pkg) {
  return `https://cdn.jsdelivr.net/npm/${pkg.name}@${pkg.version}/`;
}

/** The packaged path a README link points at, or undefined for a link that is already absolute or an anchor. */
export function packagedPath(href) {
  if (/^([a-z][a-z0-9+.-]*:|#|\/\/)/i.test(href)) return undefined;
  const [path, hash = ''] = href.split(/(?=#)/);
  const clean = path.replace(/^\.\//, '');
  if (clean.startsWith('docs/images/')) return { path: 'resources/docs/images/' + clean.slice('docs/images/'.length), hash };
  return { path: clean, hash };
}

const CLONE_BLOCK = /\n<!-- clone-commands[^>]*-->\n([\s\S]*?)\n<!-- \/clone-commands -->\n/;
const CLONE_HEADING = '## Working on this package from a clone';

/** The README for the npm page: the clone's commands under their own heading after the introduction, and absolute links. */
export function npmReadme(text, pkg) {
  const block = CLONE_BLOCK.exec(text);
  if (block) {
    const rest = text.replace(CLONE_BLOCK, '\n').replace(/\n{3,}/g, '\n\n');
    const firstSection = rest.indexOf('\n## ');
    text = firstSection < 0 ? rest : `${rest.slice(0, firstSection + 1)}${CLONE_HEADING}\n\n${block[1]}\n\n${rest.slice(firstSection + 1)}`;
  }
  return absoluteLinks(text, pkg);
}

/** README text with every relative inline link, image and reference definition made absolute. */
function absoluteLinks(text, pkg) {
  if (pkg.repository) return text;
  const base = packageBase(pkg);
  const absolute = (href) => {
    const p = packagedPath(href);
    return p ? base + p.path + p.hash : href;
  };
  return text
    .replace(/(\]\()([^)\s]+)(\))/g, (_m, open, href, close) => open + absolute(href) + close)
    .replace(/^(\s{0,3}\[[^\]]+\]:\s*)(\S+)/gm, (_m, head, href) => head + absolute(href));
}

function main(root, mode) {
  swapDuringPack(root, 'README.md', 'README.clone.md', mode, (text) => npmReadme(text, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.cwd(), process.argv[2]);
