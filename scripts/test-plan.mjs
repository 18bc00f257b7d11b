// Which spec files a test run takes, and how they are split over parallel mocha processes.
// Each process is a whole mocha run of its own (its own leak check, its own Node-RED instances): the
// specs already start every peer on a free port of 127.0.0.1, so files never share a port.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { minimatch } from 'minimatch';

/**
 * Not run a second time on Node 24, each for a reason: test/install already installs the packed
 * package into both runtimes, and the add-on preset's browser spec always starts Node 24 + Node-RED 5
 * (the add-on's runtime) itself; the conformance suites run under their own Node 22; the schema
 * compiler, the audio codecs, the todo server, the test peers and the source-tree checks never
 * load Node-RED, so a second runtime tells nothing new about them.
 */
export const NOT_ON_NODE24 = [
  'test/install/**',
  'test/browser/ha-addon-preset.test.ts',
  'test/conformance.test.ts',
  'test/server/conformance.test.ts',
  'test/schema/**',
  'test/audio/**',
  'test/todo/**',
  'test/peers/**',
  'test/architecture.test.ts',
  'test/text.test.ts',
];

/**
 * What `npm test` runs again on Node 24 + Node-RED 5: the specs whose subject is the runtime itself
 * rather than our engine: the editor and its dialogs (Node-RED 5 ships a new editor), every example
 * deployed as a user deploys it, the admin HTTP routes and settings, and the attacks on Node-RED's
 * HTTP stack. The rest exercises our engine through Node-RED's node API, which both runtimes share;
 * `npm run test:all` (and CI) runs all of it on both.
 */
export const RUNTIME_SPECS = ['test/browser/**', 'test/examples/**', 'test/security/**', 'test/admin-*.test.ts', 'test/settings-*.test.ts'];

/**
 * The editor in a real browser: `npm test` runs these once, on Node-RED 5 (the add-on's editor, the
 * one palette users meet), and `npm run test:all` on both runtimes. Those in NOT_ON_NODE24 start
 * their own Node-RED 5 and stay on the first runtime.
 */
export const EDITOR_SPECS = ['test/browser/**'];

/** The files `npm test` (`all` false) or `npm run test:all` runs on Node 22 + Node-RED 4.1. */
export function floorRuntimeFiles(files, all) {
  if (all) return files;
  return files.filter((f) => !matching([f], EDITOR_SPECS).length || matching([f], NOT_ON_NODE24).length);
}

/** Every `*.test.ts` under test/, as paths relative to root with forward slashes. */
export function specFiles(root, dir = join(root, 'test')) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...specFiles(root, path));
    else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path).split(sep).join('/'));
  }
  return found.sort();
}

export const matching = (files, globs) => files.filter((f) => globs.some((g) => minimatch(f, g)));
export const notMatching = (files, globs) => files.filter((f) => !globs.some((g) => minimatch(f, g)));

/**
 * Wall time per spec file from the last run on this machine (.tools/spec-times.json, written by
 * scripts/test.mjs), else from the committed measurement (test/spec-times.json).
 */
export function specTimes(root) {
  for (const path of [join(root, '.tools', 'spec-times.json'), join(root, 'test', 'spec-times.json')]) {
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
  }
  return {};
}

/**
 * Longest first onto the least loaded of `jobs` bins, so the runs end close together. A file never
 * measured counts as 5 s.
 */
export function splitByTime(files, times, jobs) {
  const bins = Array.from({ length: Math.max(1, jobs) }, () => ({ files: [], ms: 0 }));
  const cost = (f) => times[f] ?? 5000;
  for (const file of [...files].sort((a, b) => cost(b) - cost(a))) {
    const bin = bins.reduce((least, b) => (b.ms < least.ms ? b : least));
    bin.files.push(file);
    bin.ms += cost(file);
  }
  return bins.filter((b) => b.files.length > 0);
}
