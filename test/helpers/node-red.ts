// A real Node-RED process for the specs, on a free port on 127.0.0.1, with the admin API calls and
// the debug feed (/comms) they need. It starts the way `npm start` starts it (scripts/node-red-home.cjs:
// a user dir with this package linked into node_modules, scripts/settings.cjs), or, given
// `installed`, as a user who installed the package starts it (installed-start.ts). Either way it
// must load our nodes, and stop() ends its whole process group.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { freePort } from '../peers/free-port';
import { spawnInstalled, type InstalledOptions } from './installed-start';

// CommonJS helper shared with scripts/start.mjs (plain JS, so it has no types here).
const home = require('../../scripts/node-red-home.cjs') as {
  ROOT: string;
  PACKAGE_NAME: string;
  EXAMPLES_DIR: string;
  prepareUserDir(userDir: string, options?: { initialFlow?: string; initialFlows?: string[] }): { userDir: string; flowFile: string; settingsFile: string };
  startFlowFiles(): string[];
  exampleEnv(env?: NodeJS.ProcessEnv): Record<string, string>;
  nodeRedArgs(userDir: string): string[];
};

export const PACKAGE_NAME = home.PACKAGE_NAME;
export const EXAMPLES_DIR = home.EXAMPLES_DIR;

export type FlowNode = Record<string, any> & { id: string; type: string };

export function readExample(name: string): FlowNode[] {
  return JSON.parse(readFileSync(join(EXAMPLES_DIR, `${name}.json`), 'utf8'));
}

/**
 * An example after its set-up: credential-type variables of its tab given values, as a user does
 * in the tab's Environment variables (the examples keep their tokens there, empty on import).
 */
export function withTabCredentials(flow: FlowNode[], values: Record<string, string>): FlowNode[] {
  return flow.map((n) => (n.type === 'tab' ? { ...n, credentials: { ...values } } : n));
}

/** One message of the editor's debug sidebar, decoded. `level` is set for node.error/warn lines. */
export interface DebugMessage {
  id: string;
  name?: string;
  topic?: string;
  format?: string;
  level?: number;
  value: any;
  raw: any;
}

export interface NodeRedProcess {
  url: string;
  /** The Node-RED process (its memory is read from /proc in the security specs). */
  pid: number;
  userDir: string;
  /** Every line Node-RED wrote to stdout/stderr. */
  log: string[];
  debug: DebugFeed;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string }>;
  /** Full deploy (replaces every flow, credentials included), as the editor's Deploy button does after an import; throws on refusal. */
  deploy(flow: readonly unknown[]): Promise<void>;
  inject(id: string): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  initialFlow?: string;
  /** Several example files, as `npm start` installs them. */
  initialFlows?: string[];
  /** Start on this user directory and keep it when stopping (a restart of the same Node-RED). */
  userDir?: string;
  /** Start it as a user who installed the package does (installed-start.ts); initialFlow and userDir do not apply. */
  installed?: InstalledOptions;
}

export async function startNodeRed(options: StartOptions = {}): Promise<NodeRedProcess> {
  const started = options.installed ? await startInstalled(options.installed, options.env) : await startAsNpmStart(options);
  try {
    await assertOurNodesLoaded(started);
  } catch (err) {
    await started.stop();
    throw err;
  }
  return started;
}

async function startInstalled(installed: InstalledOptions, env: NodeJS.ProcessEnv | undefined): Promise<NodeRedProcess> {
  const port = await freePort();
  const { child, userDir } = spawnInstalled(installed, port, env);
  return attachNodeRed(child, { port, userDir, onStop: () => rmSync(userDir, { recursive: true, force: true }) });
}

/** Node-RED starts even when a package fails to load: every spec needs ours in the palette. */
async function assertOurNodesLoaded(nr: NodeRedProcess): Promise<void> {
  const res = await nr.request('GET', '/nodes', undefined, { accept: 'application/json' });
  const sets = res.body as Array<{ module: string; types: string[] }>;
  const ours = Array.isArray(sets) ? sets.filter((s) => s.module === PACKAGE_NAME).flatMap((s) => s.types) : [];
  if (!ours.includes('mcp-server')) throw new Error(`Node-RED runs without our nodes:\n${nr.log.join('\n')}`);
}

async function startAsNpmStart(options: StartOptions): Promise<NodeRedProcess> {
  const userDir = options.userDir ?? mkdtempSync(join(tmpdir(), 'mcp-gemini-examples-'));
  home.prepareUserDir(userDir, { initialFlow: options.initialFlow, initialFlows: options.initialFlows });
  const port = await freePort();
  const env = { ...process.env, ...home.exampleEnv(), ...options.env, PORT: String(port), NODE_RED_HOST: '127.0.0.1' };
  // detached: Node-RED leads its own process group, so stop() also reaches stdio MCP servers
  // that a broken node might leave behind.
  const child = spawn(process.execPath, home.nodeRedArgs(userDir), { cwd: home.ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const onStop = options.userDir ? undefined : () => rmSync(userDir, { recursive: true, force: true });
  return attachNodeRed(child, { port, userDir, onStop });
}

/**
 * A spawned Node-RED (its own process group) made usable: its log collected, ready once it has
 * started its flows, the admin API and the debug feed. `stop()` kills the group, then `onStop`.
 */
export async function attachNodeRed(
  child: ChildProcess,
  options: { port: number; userDir: string; readyMs?: number; onStop?: () => void },
): Promise<NodeRedProcess> {
  const { port, userDir } = options;
  const url = `http://127.0.0.1:${port}`;
  running.add(child);
  child.once('exit', () => running.delete(child));
  const log: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) log.push(line);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const request = adminRequester(url);
  try {
    await waitUntilReady(child, request, log, options.readyMs);
  } catch (err) {
    await kill(child);
    options.onStop?.();
    throw err;
  }
  const debug = await DebugFeed.connect(`ws://127.0.0.1:${port}/comms`);
  return {
    url,
    pid: child.pid!,
    userDir,
    log,
    debug,
    request,
    async deploy(flow) {
      const res = await request('POST', '/flows', flow, { 'Node-RED-Deployment-Type': 'full' });
      if (res.status !== 204 && res.status !== 200) throw new Error(`deploy failed: HTTP ${res.status} ${res.text}`);
    },
    async inject(id) {
      // Right after a deploy the runtime may still be starting the new nodes (404 until then).
      const deadline = Date.now() + 15_000;
      for (;;) {
        const res = await request('POST', `/inject/${id}`);
        if (res.status === 200) return;
        if (res.status !== 404 || Date.now() > deadline) throw new Error(`inject ${id} failed: HTTP ${res.status} ${res.text}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop() {
      debug.close();
      await kill(child);
      options.onStop?.();
    },
  };
}

/** JSON requests against Node-RED's admin API at `url`. */
export function adminRequester(url: string): NodeRedProcess['request'] {
  return async (method, path, body, headers = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, text };
  };
}

/** Resolves once Node-RED answers /settings and has started its flows. */
export async function waitUntilReady(child: ChildProcess, request: NodeRedProcess['request'], log: string[], ms = 60_000): Promise<void> {
  // Generous: the machine is shared, and Node-RED loads every core node first.
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Node-RED exited with ${child.exitCode}:\n${log.join('\n')}`);
    try {
      const res = await request('GET', '/settings');
      if (res.status === 200 && log.some((l) => l.includes('Started flows') || l.includes('Stopped flows'))) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Node-RED did not come up within ${ms / 1000} s:\n${log.join('\n')}`);
}

// Every Node-RED group still running. Specs stop theirs in after hooks, which a mocha killed from
// outside (a timeout, Ctrl-C) never runs; the groups lead themselves (detached), so they would live on.
const running = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of running) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

/** SIGTERM to the process group Node-RED leads, SIGKILL after 10 s. */
export async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** The editor's debug sidebar as a stream: Node-RED publishes debug output on the `debug` comms topic. */
export class DebugFeed {
  readonly messages: DebugMessage[] = [];
  /** The latest status of every node that set one, by node id (the editor's status/# topic). */
  readonly statuses = new Map<string, { text?: string; fill?: string; shape?: string }>();
  private waiters = new Set<() => void>();
  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data) => {
      let batch: any;
      try {
        batch = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (!Array.isArray(batch)) return;
      for (const item of batch) {
        if (typeof item?.topic === 'string' && item.topic.startsWith('status/')) this.statuses.set(item.topic.slice('status/'.length), item.data ?? {});
        if (item?.topic !== 'debug' || !item.data) continue;
        this.messages.push(decode(item.data));
      }
      for (const w of this.waiters) w();
    });
  }

  static connect(url: string): Promise<DebugFeed> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('error', reject);
      ws.once('open', () => {
        ws.off('error', reject);
        ws.send(JSON.stringify({ subscribe: 'debug' }));
        ws.send(JSON.stringify({ subscribe: 'status/#' }));
        resolve(new DebugFeed(ws));
      });
    });
  }

  /** Forget what arrived so far (between tests). */
  clear(): void {
    this.messages.length = 0;
  }

  /** The first message (old or new) from debug node `id` that satisfies `accept`. */
  next(id: string, accept: (m: DebugMessage) => boolean = () => true, ms = 30_000): Promise<DebugMessage> {
    return this.nextMatching((m) => m.id === id && accept(m), `a message from debug node ${id}`, ms);
  }

  nextMatching(accept: (m: DebugMessage) => boolean, what: string, ms = 30_000): Promise<DebugMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.messages.find(accept);
        if (!found) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        const seen = this.messages.map((m) => `${m.name || m.id}${m.level ? ` [level ${m.level}]` : ''}: ${summary(m.value)}`);
        reject(new Error(`no ${what} within ${ms} ms; the debug sidebar shows:\n  ${seen.join('\n  ') || '(nothing)'}`));
      }, ms);
      if (!check()) this.waiters.add(check);
    });
  }

  /** node.error / node.warn lines (they reach the sidebar with a level). */
  errors(): DebugMessage[] {
    return this.messages.filter((m) => m.level !== undefined && m.level <= 30);
  }

  close(): void {
    this.ws.close();
  }
}

function decode(data: any): DebugMessage {
  let value: any = data.msg;
  const format = String(data.format ?? '');
  if (typeof value === 'string' && /^(Object|array|number|boolean|null)/.test(format)) {
    try {
      value = JSON.parse(value);
    } catch {
      /* keep the text */
    }
  }
  return { id: data.id, name: data.name, topic: data.topic, format, level: data.level, value, raw: data };
}

function summary(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s && s.length > 300 ? `${s.slice(0, 300)}…` : String(s);
}

/** Every node type of `flow` that this runtime does not know (the cause of "missing types"). */
export async function unknownTypes(nr: NodeRedProcess, flow: FlowNode[]): Promise<string[]> {
  const res = await nr.request('GET', '/nodes', undefined, { accept: 'application/json' });
  if (res.status !== 200) throw new Error(`GET /nodes: HTTP ${res.status}`);
  const known = new Set<string>(['tab', 'subflow', 'group', 'junction']);
  for (const set of res.body as Array<{ enabled: boolean; types: string[]; err?: string }>) {
    if (set.enabled && !set.err) for (const t of set.types) known.add(t);
  }
  return [...new Set(flow.map((n) => n.type))].filter((t) => !known.has(t) && !t.startsWith('subflow:'));
}

/** What "deploys without errors or unknown nodes" means: every type known, no error or missing-type log line. */
export async function assertCleanDeploy(nr: NodeRedProcess, flow: FlowNode[]): Promise<void> {
  const unknown = await unknownTypes(nr, flow);
  if (unknown.length) throw new Error(`unknown node types: ${unknown.join(', ')}`);
  const bad = nr.log.filter((l) => /\[error\]|missing (node )?types|Waiting for missing/i.test(l));
  if (bad.length) throw new Error(`Node-RED logged:\n${bad.join('\n')}`);
}
