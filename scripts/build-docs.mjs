// Renders the package's documentation into resources/docs/, which the Node-RED editor serves at
// <editor>/resources/node-red-contrib-mcp-gemini/docs/… (a node module's resources/ folder is served
// by the editor itself, behind its own login and at its own root, so inside the Home Assistant add-on
// too). The nodes' help links there, so every link works offline and with no source checkout:
// - README.md becomes index.html, each docs/*.md its own page, docs/images/ is copied beside them;
// - each node's help.html becomes nodes/<type>.html, for the pages that point at a node's help;
// - links between them are rewritten to the rendered names (x.md → x.html).
// Markdown is rendered with marked (GitHub-flavoured), the same renderer the editor uses for help.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export function buildDocs(root) {
  const requireHere = createRequire(join(root, 'package.json'));
  const { marked } = requireHere('marked');
  const { nodeHelp } = requireHere('./scripts/node-help.cjs');
  const out = join(root, 'resources', 'docs');
  rmSync(join(root, 'resources'), { recursive: true, force: true });
  mkdirSync(join(out, 'nodes'), { recursive: true });
  cpSync(join(root, 'docs', 'images'), join(out, 'images'), { recursive: true });

  const pages = [];
  const render = (markdown, rewrite) => rewriteLinks(marked.parse(markdown, { gfm: true }), rewrite);
  // README.md sits one folder above docs/: its links point into docs/.
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  pages.push({ file: 'index.html', title: titleOf(readme), html: render(readme, (href) => fromReadme(href)) });
  for (const name of readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'))) {
    const markdown = readFileSync(join(root, 'docs', name), 'utf8');
    pages.push({ file: name.replace(/\.md$/, '.html'), title: titleOf(markdown), html: render(markdown, fromDocs) });
  }
  for (const page of pages) writeFileSync(join(out, page.file), wrap(page.title, page.html, ''));

  const types = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))['node-red'].nodes);
  for (const type of types) {
    const help = nodeHelp(readFileSync(join(root, 'nodes', type, 'help.html'), 'utf8'), type);
    writeFileSync(join(out, 'nodes', `${type}.html`), wrap(type, `<h1>${type}</h1>\n${rewriteLinks(help, fromHelp)}`, '../'));
  }
  return { pages: pages.length, nodes: types.length };
}

/** A link in README.md, as it must read from resources/docs/index.html. */
function fromReadme(href) {
  if (href === 'LICENSE') return null; // not served: the link becomes its text
  if (href.startsWith('docs/')) return fromDocs(href.slice('docs/'.length));
  return href;
}

/** A link in docs/*.md, as it must read from resources/docs/<page>.html. */
function fromDocs(href) {
  const node = /^\.\.\/nodes\/([^/]+)\/help\.html(#.*)?$/.exec(href);
  if (node) return `nodes/${node[1]}.html${node[2] ?? ''}`;
  if (href === '../README.md') return 'index.html';
  return href.replace(/^([\w.-]+)\.md(#.*)?$/, (_m, name, hash) => `${name}.html${hash ?? ''}`);
}

/** A link in a node's help, as it must read from resources/docs/nodes/<type>.html. */
function fromHelp(href) {
  const prefix = 'resources/node-red-contrib-mcp-gemini/docs/';
  return href.startsWith(prefix) ? '../' + href.slice(prefix.length) : href;
}

function rewriteLinks(html, rewrite) {
  const links = html.replace(/<a href="([^"]*)"([^>]*)>([\s\S]*?)<\/a>/g, (whole, href, rest, text) => {
    if (/^(https?:|mailto:|#)/.test(href)) return whole;
    const to = rewrite(href);
    return to === null ? text : `<a href="${to}"${rest}>${text}</a>`;
  });
  return links.replace(/<img src="([^"]*)"/g, (whole, src) => (/^https?:/.test(src) ? whole : `<img src="${rewrite(src) ?? src}"`));
}

function titleOf(markdown) {
  return (/^#\s+(.+)$/m.exec(markdown)?.[1] ?? 'node-red-contrib-mcp-gemini').replace(/`/g, '');
}

function wrap(title, body, up) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · node-red-contrib-mcp-gemini</title>
<style>
  body { font: 15px/1.55 system-ui, sans-serif; max-width: 920px; margin: 0 auto; padding: 16px 24px 48px; color: #222; }
  nav { font-size: 0.9em; margin-bottom: 12px; }
  pre, code { font: 0.9em ui-monospace, monospace; background: #f4f4f4; }
  pre { padding: 10px; overflow-x: auto; }
  table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 4px 8px; vertical-align: top; }
  img { max-width: 100%; border: 1px solid #ddd; }
  @media (prefers-color-scheme: dark) { body { background: #1e1e1e; color: #ddd; } pre, code { background: #2a2a2a; } a { color: #8ab4f8; } }
</style>
</head>
<body>
<nav><a href="${up}index.html">node-red-contrib-mcp-gemini</a></nav>
${body}
</body>
</html>
`;
}

function escapeHtml(s) {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}
