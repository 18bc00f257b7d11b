// Start the pinned official reference server `@modelcontextprotocol/server-everything` (2026.8.31)
// for tests, over Streamable HTTP (`/mcp`) or legacy HTTP+SSE (`/sse`), or hand out its stdio
// command line. Facts from reference mcp-spec-sdk.md §4.1:
// - it reads only PORT and calls app.listen(PORT), so it binds ALL interfaces, not just 127.0.0.1;
//   we cannot change that, so we pick a port that is free on 127.0.0.1 and only ever talk to
//   127.0.0.1;
// - sessions live in memory, so restarting the process on the same port is a server restart as a
//   client sees it (stale Mcp-Session-Id -> 400), which the session-expiry test needs.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { freePort } from './free-port';

export const EVERYTHING_VERSION = '2026.8.31';
export const EVERYTHING_ENTRY = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

/** The stdio command line: spawn `command` with `args` and speak MCP on its stdin/stdout. */
export const everythingStdio: { command: string; args: string[] } = {
  command: process.execPath,
  args: [EVERYTHING_ENTRY, 'stdio'],
};

export type EverythingHttpTransport = 'streamableHttp' | 'sse';

export interface EverythingServer {
  transport: EverythingHttpTransport;
  port: number;
  /** http://127.0.0.1:PORT/mcp (streamableHttp) or http://127.0.0.1:PORT/sse (sse). */
  url: string;
  /** Pid of the running server process (changes on restart). */
  pid(): number | undefined;
  /** Kill the process and start a new one on the same port: every session it held is gone. */
  restart(): Promise<void>;
  /** Kill the process and wait until it has exited. Safe to call twice. */
  stop(): Promise<void>;
  /** What the current process wrote (last 20 kB), for failure messages. */
  output(): string;
}

const START_TIMEOUT_MS = 20000;
const STOP_GRACE_MS = 5000;
const LISTENING_LINE = /(listening|running) on port \d+/;

export async function startEverything(transport: EverythingHttpTransport = 'streamableHttp'): Promise<EverythingServer> {
  let port = await freePort();
  let child: ChildProcess | undefined;
  let log = '';

  const launch = async (): Promise<void> => {
    log = ''; // output() is about the current process; its "listening" line must be its own
    const proc = spawn(process.execPath, [EVERYTHING_ENTRY, transport], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    // It logs every request; keep only the tail so long tests do not grow memory.
    const keep = (chunk: Buffer): void => {
      log = (log + chunk.toString('utf8')).slice(-20000);
    };
    proc.stdout?.on('data', keep);
    proc.stderr?.on('data', keep);
    await waitUntilListening(proc, port, () => log);
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc) await killAndWait(proc);
  };

  // Another process may grab the probed port before the server binds it; pick another then.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (err) {
      if (attempt >= 3 || !log.includes('already in use')) throw err;
      port = await freePort();
    }
  }
  return {
    transport,
    port,
    url: `http://127.0.0.1:${port}/${transport === 'sse' ? 'sse' : 'mcp'}`,
    pid: () => child?.pid,
    restart: async () => {
      await stop();
      await launch();
    },
    stop,
    output: () => log,
  };
}

function waitUntilListening(proc: ChildProcess, port: number, output: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let settled = false;
    const finish = (err?: Error): void => {
      if (settled) return;
      settled = true;
      proc.off('exit', onExit);
      if (err) reject(err);
      else resolve();
    };
    const onExit = (code: number | null, signal: string | null): void =>
      finish(new Error(`server-everything exited (${signal ?? code}) before listening on ${port}:\n${output()}`));
    proc.once('exit', onExit);
    const probe = (): void => {
      if (settled) return;
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        // The log line comes from its listen callback: the port is really its own, not a stranger's.
        if (LISTENING_LINE.test(output())) finish();
        else retry();
      });
      socket.once('error', () => {
        socket.destroy();
        retry();
      });
    };
    const retry = (): void => {
      if (Date.now() > deadline) {
        void killAndWait(proc);
        finish(new Error(`server-everything did not listen on 127.0.0.1:${port} within ${START_TIMEOUT_MS} ms:\n${output()}`));
      } else setTimeout(probe, 50);
    };
    probe();
  });
}

function killAndWait(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS);
    proc.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}
