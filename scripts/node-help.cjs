// A node's help as the editor and resources/docs/ show it. Each nodes/<type>/help.html lists under
// "Documentation" only the pages that node is about; the sentence saying those pages open offline
// and the link to all the documentation are the same for every node, so they are added here, once.
// Used by scripts/build.mjs (the editor's help), scripts/build-docs.mjs (resources/docs/nodes/) and
// the browser specs' check that dist/ is current.
'use strict';
const PACKAGE_NAME = require('../package.json').name;

const SECTION = /<h3>Documentation<\/h3>\s*<ul>([\s\S]*?)\s*<\/ul>/;

function nodeHelp(html, type) {
  const found = SECTION.exec(html);
  if (!found) throw new Error(`nodes/${type}/help.html: no "<h3>Documentation</h3>" followed by the list of its pages`);
  return html.replace(
    found[0],
    [
      '<h3>Documentation</h3>',
      '<p>Shipped with the package and served by this Node-RED, so these open offline:</p>',
      `<ul>${found[1]}`,
      `  <li><a href="resources/${PACKAGE_NAME}/docs/index.html" target="_blank">All documentation</a></li>`,
      '</ul>',
    ].join('\n'),
  );
}

module.exports = { nodeHelp };
