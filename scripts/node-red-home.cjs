// Prepares a Node-RED user directory that loads this package from the working tree, exactly as an
// installed package would be loaded. Shared by `npm start` (scripts/start.mjs) and the example
// tests (test/examples/), so the tests exercise the very setup a user gets.
//
// Node-RED scans <userDir>/node_modules for packages with a "node-red" key, loads their nodes and
// lists their examples/ folder under Import > Examples. A symlink to the repository root is such a
// package; require() inside it resolves through the real path, so our node_modules are used.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const PACKAGE_NAME = require(path.join(ROOT, 'package.json')).name;
const SETTINGS_FILE = path.join(__dirname, 'settings.cjs');
// NODE_RED_RUNTIME (a folder holding node_modules/node-red) lets the tests start another Node-RED:
// npm test's second run uses Node-RED 5 from .tools/nr5.
const RED_JS = require.resolve('node-red/red.js', { paths: [process.env.NODE_RED_RUNTIME || ROOT] });
const EXAMPLES_DIR = path.join(ROOT, 'examples');

/**
 * Creates userDir, links the package into it and, on first use only, installs the initial flows
 * (`initialFlows`: example files, each on its own tab; or a single `initialFlow`).
 */
function prepareUserDir(userDir, options = {}) {
  const modules = path.join(userDir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  linkPackage(path.join(modules, PACKAGE_NAME));
  const flowFile = path.join(userDir, 'flows.json');
  const files = options.initialFlows ?? (options.initialFlow ? [options.initialFlow] : []);
  // Never clobber a flow file the user has deployed since: the examples are a starting point.
  if (files.length && !fs.existsSync(flowFile)) {
    const nodes = files.flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
    fs.writeFileSync(flowFile, JSON.stringify(nodes, null, 2));
  }
  return { userDir, flowFile, settingsFile: SETTINGS_FILE };
}

/**
 * `npm start`'s first start: once Node-RED answers at `url`, the examples are deployed through its
 * admin API, as the editor's Import and Deploy do. That way their credentials (the endpoint tokens
 * taken from each tab's `MCP_TOKEN` variable) are stored as a user's would be, and the nodes say
 * which variable to set; written straight into flows.json, Node-RED would drop them. Resolves with
 * the number of tabs deployed.
 */
async function deployExamples(url, files = startFlowFiles(), timeoutMs = 60_000) {
  const nodes = files.flatMap((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ready = await fetch(`${url}/flows`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`Node-RED at ${url} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const res = await fetch(`${url}/flows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'Node-RED-Deployment-Type': 'full' },
    body: JSON.stringify(nodes),
  });
  if (!res.ok) throw new Error(`deploying the examples failed: HTTP ${res.status} ${await res.text()}`);
  return nodes.filter((n) => n.type === 'tab').length;
}

/** What `npm start` deploys on first start: getting-started first (its tab opens), then every other example. */
function startFlowFiles() {
  const others = fs
    .readdirSync(EXAMPLES_DIR)
    .filter((f) => f.endsWith('.json') && f !== '00-getting-started.json')
    .sort();
  return ['00-getting-started.json', ...others].map((f) => path.join(EXAMPLES_DIR, f));
}

function linkPackage(link) {
  let current;
  try {
    current = fs.realpathSync(link);
  } catch {
    current = undefined; // missing, or a dangling link
  }
  if (current === fs.realpathSync(ROOT)) return;
  fs.rmSync(link, { recursive: false, force: true });
  // 'junction' lets Windows create the link without administrator rights; ignored elsewhere.
  fs.symlinkSync(ROOT, link, process.platform === 'win32' ? 'junction' : 'dir');
}

/**
 * Environment for the started Node-RED. The example flows name their stdio servers with `module:`
 * specifiers resolved by the nodes themselves, so nothing here is needed to find them; values
 * already in `env` win.
 */
function exampleEnv(env = process.env) {
  const out = {};
  // The examples start servers with the command `node`; make it the node that runs Node-RED.
  out.PATH = [path.dirname(process.execPath), env.PATH || ''].filter(Boolean).join(path.delimiter);
  return out;
}

/** Arguments for `node` that start the devDependency Node-RED on this user dir with our settings. */
function nodeRedArgs(userDir) {
  return [RED_JS, '--userDir', userDir, '--settings', SETTINGS_FILE];
}

module.exports = { ROOT, PACKAGE_NAME, SETTINGS_FILE, RED_JS, EXAMPLES_DIR, prepareUserDir, startFlowFiles, deployExamples, exampleEnv, nodeRedArgs };
