// Which Node runs Node-RED and the specs. This package needs Node.js 22 or later (NODE_FLOOR):
// Node 20 left security support in April 2026, Node-RED 5 and @google/genai 3 need 22. A machine
// whose own Node is older (Debian's, say) still works from a clone: `npm start` and the specs run
// on the Node 22 of .tools/node22 (the npm package node@22, test/tools.json), installed once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installToolFolder } from './tool-folders.mjs';

export const NODE_FLOOR = 22;

/** Node 22 as npm brings it, in .tools/node22. */
export function node22Path(root) {
  return join(root, '.tools', 'node22', 'node_modules', '.bin', 'node');
}

/** True when this process's Node is the floor or newer. */
export function nodeIsCurrent(version = process.versions.node) {
  return Number(version.split('.')[0]) >= NODE_FLOOR;
}

/** The Node that runs Node-RED here: this one when it is new enough, else .tools/node22 (installed on first use). */
export async function floorNode(root, who) {
  if (nodeIsCurrent()) return process.execPath;
  const wanted = JSON.parse(readFileSync(join(root, 'test', 'tools.json'), 'utf8')).node22;
  if (await installToolFolder(root, 'node22', wanted, who))
    console.log(
      `${who}: this package needs Node.js ${NODE_FLOOR} or later and this machine has ${process.version}, so Node-RED runs on the Node 22 in .tools/node22`,
    );
  return node22Path(root);
}
