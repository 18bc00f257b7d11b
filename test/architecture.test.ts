// The house rules, checked on the real source tree so they cannot rot: the engine (src/) knows
// nothing of Node-RED, its folders use only the folders below them, the import graph has no cycle,
// node adapters stay thin, and the dialogs keep no script in their HTML.
// Imports are read with TypeScript's own pre-processor (the same one tsc uses to find files).
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
const MAX_NODE_ADAPTER_LINES = 120;

/**
 * Which engine folders each folder may import (files directly in src/ serve every folder). audio/
 * and schema/ are leaves. Two uses that a strict layering would forbid are part of the rule:
 * - mcp/ → schema/: the client checks tool arguments with the schema compiler's one JSON Schema
 *   dialect (one Ajv set-up for the client, the endpoint and the compiler);
 * - gemini/ → audio/: Gemini's TTS and Live speak PCM, so the Gemini client reads and writes WAV/PCM.
 */
const MAY_USE: Record<string, string[]> = {
  audio: [],
  schema: [],
  mcp: ['schema'],
  gemini: ['mcp', 'schema', 'audio'],
  esp32: ['mcp', 'audio'],
  voice: ['esp32', 'gemini', 'mcp', 'audio', 'home-assistant'],
  server: ['schema'],
  'home-assistant': ['audio'],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every import/export/require specifier of a file, type-only ones included. */
function specifiers(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base + '.ts', join(base, 'index.ts'), base]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

const rel = (p: string) => relative(ROOT, p);

/**
 * The rooms inside the three largest folders, and which rooms of the same folder each may import.
 * A folder's hall (its files that stand in no subfolder) is a room like the others. The lists form
 * a layering (checked below: no room reaches itself through them), so a room never imports one
 * above it.
 * - mcp: protocol (the SDK's face, typed custom requests) → transport (HTTP and stdio carriage,
 *   reply bounds) and lenient (reading what servers really send) → call (one tools/call, its clock,
 *   tasks and input requests; the ToolProvider shape) → settings (a server's settings, its tool
 *   cache) → oauth (signing in) → the hall (the session, its features, the transport factory).
 * - server: calls (a call waiting for its flow, the caller, asking the client) → tasks and flows
 *   (flows as tools, prompts, resources), http (the endpoint's HTTP pieces) and oauth (its own
 *   authorization server: sign-in, approvals) → the hall (the endpoint, its HTTP front, serving a call).
 * - esp32: devices (one device's session, ids, gate, RPC) → the hall (what a listener is, its
 *   settings, the OTA wire types) → ota (the OTA answer and pairing) → carriage (WebSocket, MQTT
 *   gateway, MQTT client) → provider (listeners shared by nodes, the ToolProvider over devices).
 */
const ROOMS_MAY_USE: Record<string, Record<string, string[]>> = {
  mcp: {
    'mcp/protocol': [],
    'mcp/transport': ['mcp/protocol'],
    'mcp/lenient': ['mcp/protocol'],
    'mcp/call': ['mcp/protocol', 'mcp/lenient'],
    'mcp/settings': ['mcp/transport', 'mcp/call'],
    'mcp/oauth': ['mcp/protocol', 'mcp/transport'],
    mcp: ['mcp/protocol', 'mcp/transport', 'mcp/lenient', 'mcp/call', 'mcp/settings', 'mcp/oauth'],
  },
  server: {
    'server/calls': [],
    'server/tasks': ['server/calls'],
    'server/flows': ['server/calls'],
    'server/node-red': ['server/calls'],
    'server/http': [],
    'server/oauth': [],
    server: ['server/calls', 'server/tasks', 'server/flows', 'server/node-red', 'server/http', 'server/oauth'],
  },
  esp32: {
    'esp32/devices': [],
    esp32: ['esp32/devices'],
    'esp32/ota': ['esp32', 'esp32/devices'],
    'esp32/carriage': ['esp32', 'esp32/devices', 'esp32/ota'],
    'esp32/provider': ['esp32', 'esp32/devices', 'esp32/carriage'],
  },
};

/** The room of a file in src/: "mcp/call" for src/mcp/call/…, "mcp" for src/mcp/session.ts, undefined for src/*.ts. */
function roomOf(file: string): string | undefined {
  const parts = rel(file).split('/').slice(1);
  if (parts.length < 2) return undefined;
  if (!(parts[0] in ROOMS_MAY_USE) || parts.length === 2) return parts[0];
  return `${parts[0]}/${parts[1]}`;
}

describe('architecture: the rules of the house, on the real tree', () => {
  const files = [...tsFiles(join(ROOT, 'src')), ...tsFiles(join(ROOT, 'nodes')), ...tsFiles(join(ROOT, 'servers'))];
  const graph = new Map(files.map((f) => [f, specifiers(f)]));

  it('reads the whole engine and every adapter (the check is not vacuous)', () => {
    assert.ok(files.filter((f) => rel(f).startsWith('src/')).length > 80, 'src/ has its modules');
    assert.ok(files.filter((f) => rel(f).startsWith('nodes/')).length > 20, 'nodes/ has its adapters');
    const edges = [...graph.values()].flat().filter((s) => s.startsWith('.')).length;
    assert.ok(edges > 300, `relative imports found: ${edges}`);
  });

  it('src/ imports nothing from nodes/ and no Node-RED package', () => {
    const offences: string[] = [];
    for (const [file, specs] of graph) {
      if (!rel(file).startsWith('src/')) continue;
      for (const spec of specs) {
        const target = resolveLocal(file, spec);
        if (target && rel(target).startsWith('nodes/')) offences.push(`${rel(file)} → ${spec}`);
        if (/^(node-red|@node-red\/|node-red-)/.test(spec)) offences.push(`${rel(file)} → ${spec}`);
      }
    }
    assert.deepEqual(offences, []);
  });

  it('the import graph of src/, nodes/ and servers/ has no cycle (type-only imports included)', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (file: string, path: string[]) => {
      state.set(file, 'open');
      for (const spec of graph.get(file) ?? []) {
        const target = resolveLocal(file, spec);
        if (!target || !graph.has(target)) continue;
        if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target].map(rel).join(' → '));
        else if (!state.has(target)) visit(target, [...path, target]);
      }
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [file]);
    assert.deepEqual(cycles, []);
  });

  it('each engine folder imports only the folders the layering allows', () => {
    const folderOf = (file: string) => rel(file).split('/')[1];
    const offences: string[] = [];
    for (const [file, specs] of graph) {
      if (!rel(file).startsWith('src/') || !rel(file).slice(4).includes('/')) continue;
      const from = folderOf(file);
      assert.ok(from in MAY_USE, `src/${from}/ is missing from MAY_USE`);
      for (const spec of specs) {
        const target = resolveLocal(file, spec);
        if (!target || !rel(target).startsWith('src/') || !rel(target).slice(4).includes('/')) continue;
        const to = folderOf(target);
        if (to !== from && !MAY_USE[from].includes(to)) offences.push(`${rel(file)} → ${spec}`);
      }
    }
    assert.deepEqual(offences, []);
  });

  it('inside mcp/, server/ and esp32/ each room imports only the rooms below it, and every room is named', () => {
    const offences: string[] = [];
    for (const [file, specs] of graph) {
      if (!rel(file).startsWith('src/')) continue;
      const from = roomOf(file);
      const folder = from?.split('/')[0];
      if (!from || !folder || !(folder in ROOMS_MAY_USE)) continue;
      assert.ok(from in ROOMS_MAY_USE[folder], `src/${from}/ is a room the architecture test does not name`);
      for (const spec of specs) {
        const target = resolveLocal(file, spec);
        const to = target && rel(target).startsWith('src/') ? roomOf(target) : undefined;
        if (!to || to === from || to.split('/')[0] !== folder) continue;
        if (!ROOMS_MAY_USE[folder][from].includes(to)) offences.push(`${rel(file)} → ${spec} (${from} may not use ${to})`);
      }
    }
    assert.deepEqual(offences, []);
  });

  it('the rooms form a layering: no room reaches itself through the rooms it may use', () => {
    for (const rooms of Object.values(ROOMS_MAY_USE)) {
      const reaches = (room: string, seen: Set<string>): boolean =>
        rooms[room].some((next) => next === [...seen][0] || (!seen.has(next) && (seen.add(next), reaches(next, seen))));
      for (const room of Object.keys(rooms)) assert.equal(reaches(room, new Set([room])), false, `${room} reaches itself`);
    }
  });

  it('no folder of the engine is a heap: at most 20 files stand side by side in one room', () => {
    const heaps = [...new Set(files.filter((f) => rel(f).startsWith('src/')).map((f) => dirname(f)))]
      .map((dir) => ({ dir: rel(dir), count: readdirSync(dir).filter((n) => n.endsWith('.ts')).length }))
      .filter((d) => d.count > 20)
      .map((d) => `${d.dir}: ${d.count}`);
    assert.deepEqual(heaps, []);
  });

  const nodeFolders = readdirSync(join(ROOT, 'nodes')).filter((n) => existsSync(join(ROOT, 'nodes', n, 'index.ts')));

  it('every node type in package.json has its folder: adapter, dialog, form, help and strings side by side', () => {
    const types = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))['node-red'].nodes);
    assert.deepEqual([...nodeFolders].sort(), [...types].sort());
    for (const type of types) {
      for (const f of ['index.ts', 'editor.ts', 'editor.html', 'help.html', 'locale.json']) {
        assert.ok(existsSync(join(ROOT, 'nodes', type, f)), `nodes/${type}/${f}`);
      }
    }
  });

  it(`every node adapter (nodes/<type>/index.ts) is at most ${MAX_NODE_ADAPTER_LINES} lines`, () => {
    const long = nodeFolders
      .map((n) => ({ n, lines: readFileSync(join(ROOT, 'nodes', n, 'index.ts'), 'utf8').split('\n').length - 1 }))
      .filter((f) => f.lines > MAX_NODE_ADAPTER_LINES)
      .map((f) => `${f.n}: ${f.lines}`);
    assert.deepEqual(long, []);
  });

  it('no dialog keeps a script in its HTML: dialog code is TypeScript (editor.ts)', () => {
    const scripts = nodeFolders.flatMap((n) =>
      ['editor.html', 'help.html'].filter((f) => /<script\b/i.test(readFileSync(join(ROOT, 'nodes', n, f), 'utf8'))).map((f) => `nodes/${n}/${f}`),
    );
    assert.deepEqual(scripts, []);
  });

  it('nodes/shared/ holds what several nodes use: it imports no node folder', () => {
    const offences: string[] = [];
    for (const [file, specs] of graph) {
      if (!rel(file).startsWith('nodes/shared/')) continue;
      for (const spec of specs) {
        const target = resolveLocal(file, spec);
        if (target && rel(target).startsWith('nodes/') && !rel(target).startsWith('nodes/shared/')) offences.push(`${rel(file)} → ${spec}`);
      }
    }
    assert.deepEqual(offences, []);
  });
});
