// `npm start`: a local Node-RED 4.1 (the devDependency, on Node 22 or later) on http://127.0.0.1:1880 with this package
// loaded from the working tree, every example importable (Import > Examples) and, on first start,
// every example deployed, each on its own tab, getting-started first (it works offline and fires on
// deploy). The user dir is .node-red/ (git-ignored); delete it to start over.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { staleBecause } from './build-state.mjs';
import { floorNode } from './node-runtimes.mjs';

const require = createRequire(import.meta.url);
const { ROOT, prepareUserDir, deployExamples, exampleEnv, nodeRedArgs } = require('./node-red-home.cjs');

const stale = staleBecause(ROOT);
if (stale) {
  console.log(`${stale}: building first (npm run build)`);
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: ROOT });
}

const userDir = process.env.NODE_RED_USER_DIR || join(ROOT, '.node-red');
const { flowFile } = prepareUserDir(userDir);
// Never clobber a flow the user has deployed since: the examples are a starting point.
const firstStart = !existsSync(flowFile);
const env = { ...process.env, ...exampleEnv() };
console.log(`Node-RED user dir: ${userDir} (flows: ${flowFile})`);

// Node-RED runs on Node 22 or later; on an older Node, on the Node 22 of .tools/node22 (installed once).
const node = await floorNode(ROOT, 'npm start');
const child = spawn(node, nodeRedArgs(userDir), { cwd: ROOT, env, stdio: 'inherit' });
if (firstStart) {
  const url = `http://${env.NODE_RED_HOST || '127.0.0.1'}:${Number(env.PORT) || 1880}`;
  deployExamples(url).then(
    (tabs) => console.log(`npm start: first start, deployed the ${tabs} example tabs (getting-started first)`),
    (err) => console.error(`npm start: ${err.message}`),
  );
}
// Ctrl-C reaches the whole foreground process group already; forwarding covers `kill <pid>`.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
// `npm start` runs us through `sh -c`; when npm is stopped with `kill`, dash dies without passing the
// signal on and we would be orphaned with Node-RED still running. So stop when our parent goes away.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent && child.exitCode === null) child.kill('SIGTERM');
}, 1000).unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
