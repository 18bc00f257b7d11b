// A root-level mocha hook (loaded by .mocharc.cjs): after the last spec, whatever still keeps the
// process alive (a child process, socket, server or timer a test or the code under test forgot to
// close) is named and fails the run. The leaked handles are then unref'd so the run ends with that
// failure instead of hanging, which is what `exit: true` used to hide. Timers cannot be reached
// from here: a leaked one delays the end until it fires.
// LEAK_TRACE=1 also records where each timer, socket, server and child process was created
// (async_hooks; slower, so opt-in).
import { createHook } from 'node:async_hooks';
import type { ChildProcess } from 'node:child_process';
import { Socket as UdpSocket } from 'node:dgram';
import { Server, Socket } from 'node:net';

/**
 * How long closes already under way (a server's close callback, a child's exit) may take to settle.
 * Longer than the 5 s Node-RED's runtime gives every WebSocket upgrade (inboundWebSocketTimeout).
 */
const SETTLE_MS = 6000;

interface TrackedTimer {
  hasRef(): boolean;
  _destroyed?: boolean;
  _idleTimeout: number;
  _onTimeout?: { name?: string };
}

interface Handle {
  constructor: { name: string };
  unref?: () => void;
  hasRef?: () => boolean;
  _handle?: object;
}

const TRACED = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP', 'UDPWRAP', 'PIPEWRAP', 'PIPESERVERWRAP', 'PROCESSWRAP']);
const origins = new Map<object, string>();
if (process.env.LEAK_TRACE) {
  createHook({
    init(_id, type, _trigger, resource) {
      if (TRACED.has(type)) origins.set(resource, new Error().stack!.split('\n').slice(2, 14).join('\n'));
    },
  }).enable();
}

function describeTimers(): string[] {
  return [...origins]
    .filter((entry): entry is [TrackedTimer, string] => typeof (entry[0] as TrackedTimer)._idleTimeout === 'number')
    .filter(([t]) => !t._destroyed && t._idleTimeout !== -1 && t.hasRef())
    .map(([t, stack]) => `timer ${t._idleTimeout} ms (${t._onTimeout?.name || 'anonymous'}) created at\n${stack}`);
}

const processHandles = (): Handle[] => (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();

const isStdio = (h: Handle) => h === (process.stdin as unknown) || h === (process.stdout as unknown) || h === (process.stderr as unknown);

/** Handles that keep the event loop alive, other than this process's own stdio. */
function leakedHandles(): Handle[] {
  return processHandles().filter((h) => !isStdio(h) && (h.hasRef ? h.hasRef() : true));
}

/** Refed timers (not in _getActiveHandles); counted from the resource list Node keeps. */
function leakedTimers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
}

/** The native handle behind a JS object (dgram keeps it in a symbol-keyed state object). */
function nativeHandleOf(h: Handle): object | undefined {
  if (!(h instanceof UdpSocket)) return h._handle; // (dgram's _handle getter is deprecated)
  for (const s of Object.getOwnPropertySymbols(h)) {
    const state = (h as unknown as Record<symbol, { handle?: object } | undefined>)[s];
    if (state && typeof state === 'object' && state.handle) return state.handle;
  }
  return undefined;
}

function describeHandle(h: Handle): string {
  const native = nativeHandleOf(h);
  const origin = native && origins.get(native);
  return origin ? `${nameHandle(h)}, created at\n${origin}` : nameHandle(h);
}

function nameHandle(h: Handle): string {
  if (h instanceof Server) return `server listening on ${JSON.stringify(h.address())}`;
  if (h instanceof UdpSocket) return `UDP socket bound to ${JSON.stringify(h.address())}`;
  if (h instanceof Socket) {
    if (h.remotePort) return `socket ${h.localAddress}:${h.localPort} -> ${h.remoteAddress}:${h.remotePort}`;
    return `socket (pipe${h.readable ? ', readable' : ''}${h.writable ? ', writable' : ''})`;
  }
  if (h.constructor.name === 'ChildProcess') {
    const child = h as unknown as ChildProcess;
    return `child process ${child.pid}: ${child.spawnargs.join(' ')}`;
  }
  return h.constructor.name;
}

async function settled(): Promise<{ handles: Handle[]; timers: number }> {
  const started = Date.now();
  for (;;) {
    const handles = leakedHandles();
    const timers = leakedTimers();
    if ((handles.length === 0 && timers === 0) || Date.now() - started > SETTLE_MS) return { handles, timers };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    // Mocha times a hook with a timer it starts once the hook returned its promise; stop that timer
    // so it is not counted (settled() bounds the wait instead).
    this.timeout(0);
    await null;
    (this.runnable() as Mocha.Runnable & { clearTimeout(): void }).clearTimeout();
    const { handles, timers } = await settled();
    if (handles.length === 0 && timers === 0) return;
    const lines = handles.map(describeHandle);
    if (timers) lines.push(`${timers} pending timer(s) (setTimeout/setInterval not cleared or unref'd; LEAK_TRACE=1 says where)`, ...describeTimers());
    for (const h of handles) h.unref?.();
    throw new Error(
      `the run leaves ${lines.length} thing(s) keeping the process alive; close them in the test or code that opened them:\n  - ${lines.join('\n  - ')}`,
    );
  },
};
