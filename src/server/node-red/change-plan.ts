// A proposed change to Node-RED's flows, applied to a copy of the deployed configuration and
// checked before anything runs: `changes` is a list of {op: "tab"|"add"|"change"|"remove", ...}
// with nodes in Node-RED's own flow JSON. The result is the whole next configuration (what a deploy
// sends), the lines a person reads before approving it, and every problem found, all at once so the
// assistant can fix them in one go.
//
// Safe by construction: credentials are never written (a `[redacted]` value keeps the stored one,
// anything else is refused), a node holding credentials is neither changed nor removed (its other
// settings say where the secret goes), a value the read tools masked comes back as the stored
// value, and the endpoint that serves these tools is out of reach.
import { isDeepStrictEqual } from 'node:util';
import { randomBytes } from 'node:crypto';
import type { DeployedNode } from './types';

export const REDACTED = '[redacted]';
/** The word in a tab's description that lets the assistant change it, when the endpoint limits changes to marked tabs. */
export const TAB_MARKER = '#assistant';
const MAX_CHANGES = 200;
const SHOWN_CHARS = 160;
/** Types every Node-RED knows without a registered node set. */
const STRUCTURAL = new Set(['tab', 'subflow', 'group', 'junction']);
const LAYOUT = new Set(['x', 'y', 'w', 'h']);

export interface PlanContext {
  /** The registered node types. */
  types: ReadonlySet<string>;
  credentialKeys(id: string): string[];
  /** What the read tools did to a value before the client saw it (masking known secrets). */
  scrub<T>(value: T): T;
  /** Only tabs carrying TAB_MARKER may be touched. */
  markedOnly: boolean;
  /** The endpoint serving these tools: never touched. */
  self: string;
}

export interface Plan {
  flows: DeployedNode[];
  /** What a person reads: one line per node added, changed or removed. */
  lines: string[];
  problems: string[];
  /** The tabs and subflows the change touches (their nodes' errors are reported after a deploy). */
  tabs: string[];
}

type Op = { op?: unknown; node?: unknown; id?: unknown; tab?: unknown };

export function planChange(current: readonly DeployedNode[], changes: unknown, ctx: PlanContext): Plan {
  const problems: string[] = [];
  const lines: string[] = [];
  if (!Array.isArray(changes) || changes.length === 0)
    return { flows: [...current], lines, tabs: [], problems: ['changes must be a non-empty list of {op: "tab"|"add"|"change"|"remove", …}'] };
  if (changes.length > MAX_CHANGES)
    return { flows: [...current], lines, tabs: [], problems: [`at most ${MAX_CHANGES} changes at once (got ${changes.length})`] };

  const before = new Map(current.map((n) => [n.id, n]));
  const flows: DeployedNode[] = current.map((n) => structuredClone(n));
  const index = () => new Map(flows.map((n) => [n.id, n]));
  let byId = index();
  const added = new Set<string>();
  const changed = new Set<string>();
  const removed = new Set<string>();

  changes.forEach((raw: Op, i) => {
    const at = `changes[${i}]`;
    if (!raw || typeof raw !== 'object') return void problems.push(`${at} must be an object {op, …}`);
    switch (raw.op) {
      case 'tab': {
        const t = (raw.tab ?? {}) as Record<string, unknown>;
        if (typeof t.label !== 'string' || !t.label.trim()) return void problems.push(`${at}: a new tab needs tab.label`);
        const id = idOf(t.id, at, problems);
        if (!id) return;
        if (byId.has(id)) return void problems.push(`${at}: the id ${id} is taken (${describe(byId.get(id)!)})`);
        const info = typeof t.info === 'string' ? t.info : '';
        const tab: DeployedNode = { id, type: 'tab', label: t.label.trim(), disabled: t.disabled === true, info };
        if (ctx.markedOnly && !info.includes(TAB_MARKER)) tab.info = info ? `${info}\n\n${TAB_MARKER}` : TAB_MARKER;
        flows.push(tab);
        byId.set(id, tab);
        added.add(id);
        lines.push(`+ tab "${tab.label}" (${id})`);
        return;
      }
      case 'add': {
        const n = raw.node as Record<string, unknown> | undefined;
        if (!n || typeof n !== 'object' || typeof n.type !== 'string' || !n.type)
          return void problems.push(`${at}: add needs node: {type, z, …} in Node-RED's flow JSON`);
        const id = idOf(n.id, at, problems);
        if (!id) return;
        if (byId.has(id)) return void problems.push(`${at}: the id ${id} is taken (${describe(byId.get(id)!)}); use op "change" to change it`);
        const node = { ...n, id } as DeployedNode;
        if (!credentialsKept(node, at, problems)) return;
        delete node.credentials;
        flows.push(node);
        byId.set(id, node);
        added.add(id);
        lines.push(`+ ${describe(node)}${onTab(node, byId)}${settingsText(node)}`);
        return;
      }
      case 'change': {
        const n = raw.node as Record<string, unknown> | undefined;
        if (!n || typeof n !== 'object' || typeof n.id !== 'string') return void problems.push(`${at}: change needs node: {id, …the settings to change}`);
        const existing = byId.get(n.id);
        if (!existing) return void problems.push(`${at}: no node has the id ${n.id}${removed.has(n.id) ? ' (removed by an earlier change)' : ''}`);
        if (!credentialsKept(n, at, problems)) return;
        const was = before.get(n.id);
        const next: DeployedNode = { ...existing };
        const said: string[] = [];
        for (const [key, value] of Object.entries(n)) {
          if (key === 'id' || key === 'credentials') continue;
          // The client sends back what it read: a masked value stands for the stored one.
          if (was && key in was && !isDeepStrictEqual(was[key], value) && isDeepStrictEqual(ctx.scrub(was[key]), value)) continue;
          if (value === null) {
            if (key in next) said.push(`${key} removed`);
            delete next[key];
          } else if (!isDeepStrictEqual(next[key], value)) {
            said.push(LAYOUT.has(key) ? `${key} ${show(value)}` : `${key}: ${show(ctx.scrub(next[key]))} → ${show(value)}`);
            next[key] = value;
          }
        }
        if (!said.length) return;
        flows[flows.indexOf(existing)] = next;
        byId.set(next.id, next);
        if (!added.has(next.id)) changed.add(next.id);
        lines.push(`~ ${describe(next)}: ${said.join('; ')}`);
        return;
      }
      case 'remove': {
        const id = typeof raw.id === 'string' ? raw.id : undefined;
        const node = id ? byId.get(id) : undefined;
        if (!id || !node) return void problems.push(`${at}: remove needs the id of a node that exists (got ${show(raw.id)})`);
        const going = node.type === 'tab' || node.type === 'subflow' ? flows.filter((m) => m.id === id || m.z === id) : [node];
        for (const m of going) {
          flows.splice(flows.indexOf(m), 1);
          byId.delete(m.id);
          if (added.delete(m.id)) continue;
          changed.delete(m.id);
          removed.add(m.id);
        }
        lines.push(`- ${describe(node)}${going.length > 1 ? ` with its ${going.length - 1} nodes` : ''}`);
        return;
      }
      default:
        problems.push(`${at}: op must be "tab", "add", "change" or "remove" (got ${show(raw.op)})`);
    }
  });

  // Wires into removed nodes go with them, as in the editor.
  if (removed.size)
    for (let i = 0; i < flows.length; i++) {
      const n = flows[i];
      if (!Array.isArray(n.wires) || !n.wires.some((port) => Array.isArray(port) && port.some((t) => removed.has(t)))) continue;
      flows[i] = { ...n, wires: n.wires.map((port) => (Array.isArray(port) ? port.filter((t) => !removed.has(t)) : port)) };
      if (!added.has(n.id)) changed.add(n.id);
    }
  byId = index();

  const references = referenceKeys(current);
  for (const id of [...added, ...changed]) problems.push(...checkNode(byId.get(id)!, byId, ctx, references));
  for (const id of [...changed, ...removed]) {
    const was = before.get(id)!;
    if (id === ctx.self) problems.push(`${describe(was)} serves these tools and cannot be changed or removed through them`);
    else if (ctx.credentialKeys(id).length && !(changed.has(id) && isDeepStrictEqual(was, byId.get(id))))
      problems.push(`${describe(was)} holds credentials: change or remove it in the editor (its settings say where the secret is sent)`);
    else if (isConfigNode(was))
      problems.push(`${describe(was)} is a config node (connections and what they send live there): change or remove it in the editor; add a new one instead`);
  }
  if (ctx.markedOnly) problems.push(...outsideMarkedTabs([...added, ...changed, ...removed], before, byId));

  const tabs = new Set<string>();
  for (const id of [...added, ...changed, ...removed]) {
    const n = byId.get(id) ?? before.get(id)!;
    tabs.add(n.type === 'tab' || n.type === 'subflow' ? n.id : (n.z ?? ''));
  }
  tabs.delete('');
  // What a person should look at twice: a node that reads the environment may send a secret somewhere.
  for (const id of [...added, ...changed]) {
    const names = environmentReads(byId.get(id)!);
    if (names.length) lines.push(`! ${describe(byId.get(id)!)} reads the environment: ${names.join(', ')} (check where it sends them)`);
  }
  if (!problems.length && !lines.length) problems.push('the changes change nothing');
  return { flows, lines, problems, tabs: [...tabs] };
}

/** Whatever a node's `credentials` says, only "[redacted]" (keep what is stored) is accepted. */
function credentialsKept(node: Record<string, unknown>, at: string, problems: string[]): boolean {
  const creds = node.credentials;
  if (creds === undefined) return true;
  const kept = creds && typeof creds === 'object' && Object.values(creds).every((v) => v === REDACTED);
  if (!kept)
    problems.push(`${at}: credentials cannot be set through these tools (only "${REDACTED}", which keeps what is stored); a person sets them in the editor`);
  return Boolean(kept);
}

function idOf(value: unknown, at: string, problems: string[]): string | undefined {
  if (value === undefined) return randomBytes(8).toString('hex');
  if (typeof value === 'string' && /^[A-Za-z0-9._:-]{1,64}$/.test(value)) return value;
  problems.push(`${at}: an id is letters, digits and . _ : - (at most 64), like Node-RED's own 16 hex digits (got ${show(value)})`);
  return undefined;
}

function checkNode(node: DeployedNode, byId: Map<string, DeployedNode>, ctx: PlanContext, references: Map<string, Set<string>>): string[] {
  const problems: string[] = [];
  const who = describe(node);
  const subflow = node.type.startsWith('subflow:') ? byId.get(node.type.slice('subflow:'.length)) : undefined;
  if (!STRUCTURAL.has(node.type) && !ctx.types.has(node.type) && subflow?.type !== 'subflow')
    problems.push(`${who}: no node type "${node.type}" is installed (node_types lists them)`);
  if (node.type === 'tab' || node.type === 'subflow') return problems;
  const flowNode = Array.isArray(node.wires) || node.x !== undefined;
  if (node.z !== undefined) {
    const tab = byId.get(node.z);
    if (!tab || (tab.type !== 'tab' && tab.type !== 'subflow')) problems.push(`${who}: z ${show(node.z)} is no tab or subflow`);
  } else if (flowNode) problems.push(`${who}: a flow node needs z, the id of its tab`);
  if (node.g !== undefined && byId.get(node.g as string)?.type !== 'group') problems.push(`${who}: g ${show(node.g)} is no group`);
  if (node.wires !== undefined) {
    if (!Array.isArray(node.wires) || !node.wires.every((port) => Array.isArray(port) && port.every((t) => typeof t === 'string')))
      problems.push(`${who}: wires must be a list of outputs, each a list of node ids, e.g. [["a1b2"], []]`);
    else
      for (const target of node.wires.flat() as string[]) {
        const to = byId.get(target);
        if (!to) problems.push(`${who}: wired to ${target}, which does not exist`);
        else if (to.z !== node.z) problems.push(`${who}: wired to ${describe(to)} on another tab (use link nodes between tabs)`);
      }
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === 'id' || key === 'z' || key === 'g' || key === 'type' || typeof value !== 'string' || !value) continue;
    const isReference = references.get(node.type)?.has(key) || /^[0-9a-f]{16}$/.test(value);
    if (isReference && !byId.has(value)) problems.push(`${who}: ${key} names the config node ${value}, which does not exist`);
  }
  return problems;
}

const isConfigNode = (n: DeployedNode) => !STRUCTURAL.has(n.type) && n.wires === undefined && n.x === undefined;

/** The environment variables a node's settings name: `${NAME}` anywhere, or env.get("NAME") in code. */
function environmentReads(n: DeployedNode): string[] {
  const found = new Set<string>();
  const text = JSON.stringify(n);
  for (const m of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) found.add(m[1]);
  for (const m of text.matchAll(/env\.get\(\s*\\?["']([^"'\\]+)/g)) found.add(m[1]);
  return [...found];
}

/** Settings that hold a config node's id, learned from the deployed nodes of each type (the runtime knows no editor defaults). */
function referenceKeys(nodes: readonly DeployedNode[]): Map<string, Set<string>> {
  const configs = new Set(nodes.filter(isConfigNode).map((n) => n.id));
  const keys = new Map<string, Set<string>>();
  for (const n of nodes)
    for (const [key, value] of Object.entries(n))
      if (key !== 'id' && key !== 'z' && typeof value === 'string' && configs.has(value)) {
        if (!keys.has(n.type)) keys.set(n.type, new Set());
        keys.get(n.type)!.add(key);
      }
  return keys;
}

function outsideMarkedTabs(ids: string[], before: Map<string, DeployedNode>, after: Map<string, DeployedNode>): string[] {
  const marked = (tabId: string | undefined, inside: Map<string, DeployedNode>) => {
    const tab = tabId === undefined ? undefined : inside.get(tabId);
    return tab?.type === 'tab' && typeof tab.info === 'string' && tab.info.includes(TAB_MARKER);
  };
  const problems: string[] = [];
  for (const id of ids) {
    const was = before.get(id);
    const now = after.get(id);
    const n = (now ?? was)!;
    const isTab = n.type === 'tab';
    // An existing tab must have carried the marker before; a node must sit on marked tabs before and after.
    const ok = isTab ? (!was || marked(id, before)) && (!now || marked(id, after)) : (!was || marked(was.z, before)) && (!now || marked(now.z, after));
    if (!ok)
      problems.push(
        `${describe(n)}: this endpoint changes only tabs whose description carries ${TAB_MARKER} (create a tab with op "tab" to build in your own)`,
      );
  }
  return problems;
}

export function describe(n: DeployedNode): string {
  const name = [n.name, n.label].find((v) => typeof v === 'string' && v) as string | undefined;
  return `${n.type}${name ? ` "${name}"` : ''} (${n.id})`;
}

function onTab(n: DeployedNode, byId: Map<string, DeployedNode>): string {
  const tab = n.z ? byId.get(n.z) : undefined;
  return tab ? ` on "${(tab.label as string) ?? tab.name ?? tab.id}"` : '';
}

function settingsText(n: DeployedNode): string {
  const shown = Object.entries(n)
    .filter(([k]) => !['id', 'type', 'z', 'name', 'label', 'x', 'y', 'g'].includes(k))
    .map(([k, v]) => `${k} ${show(v)}`);
  return shown.length ? `: ${shown.join(', ')}` : '';
}

function show(value: unknown): string {
  const text = value === undefined ? 'unset' : JSON.stringify(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}
