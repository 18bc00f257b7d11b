// The command line for the stdio hygiene test: `sh -c` runs our MCP server (not via exec, so the
// shell stays in between), and the server spawns a grandchild that ignores SIGTERM. The SDK's own
// StdioClientTransport.close() signals only the shell, leaving both behind (typescript-sdk#2023);
// the mcp-server node must kill the whole process group. Every process writes "<role> <pid>" to
// the pid file so a test can check each by pid.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const STUBBORN_PID_FILE_ENV = 'STUBBORN_PID_FILE';

export interface StubbornCommand {
  command: string;
  args: string[];
  /** Extra environment the server needs; pass it to the spawn (the SDK does not inherit process.env). */
  env: Record<string, string>;
}

export interface StubbornPids {
  shell?: number;
  server?: number;
  grandchild?: number;
  /** True once the grandchild has received (and ignored) a SIGTERM. */
  grandchildIgnoredSigterm: boolean;
}

export function stubbornStdioCommand(pidFile: string): StubbornCommand {
  const script = 'echo "shell $$" >> "$STUBBORN_PID_FILE"; "$0" --import "$1" "$2"; exit $?';
  return {
    command: 'sh',
    args: ['-c', script, process.execPath, pathToFileURL(require.resolve('tsx')).href, join(__dirname, 'server.ts')],
    env: { [STUBBORN_PID_FILE_ENV]: pidFile },
  };
}

export function readStubbornPids(pidFile: string): StubbornPids {
  let text = '';
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch {
    // Not written yet.
  }
  const pids: StubbornPids = { grandchildIgnoredSigterm: false };
  for (const line of text.split('\n')) {
    const [role, pid] = line.trim().split(' ');
    if (role === 'shell' || role === 'server' || role === 'grandchild') pids[role] = Number(pid);
    if (role === 'grandchild-ignored-sigterm') pids.grandchildIgnoredSigterm = true;
  }
  return pids;
}

/** Waits (polling the file) until shell, server and grandchild have all written their pid. */
export async function waitForStubbornPids(pidFile: string, timeoutMs = 20000): Promise<Required<Omit<StubbornPids, 'grandchildIgnoredSigterm'>>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = readStubbornPids(pidFile);
    if (pids.shell && pids.server && pids.grandchild) return { shell: pids.shell, server: pids.server, grandchild: pids.grandchild };
    if (Date.now() > deadline) throw new Error(`stubborn stdio peer did not write all pids to ${pidFile}: ${JSON.stringify(pids)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a process with this pid exists (and is not a zombie awaiting its parent). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // A killed child of a still-running parent lingers as a zombie until reaped; it is gone for our purpose.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Test cleanup: SIGKILL whatever the peer left behind, by the pids it recorded. */
export function killStubbornPids(pidFile: string): void {
  const pids = readStubbornPids(pidFile);
  for (const pid of [pids.grandchild, pids.server, pids.shell]) {
    if (pid && isAlive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}
