// Reading what test/peers/lifecycle-server.ts writes to $LIFECYCLE_LOG ("ready <pid>", "list <pid>",
// "started", "cancelled <id>"), and whether one of its processes is still alive.
import { readFileSync } from 'node:fs';

/** The log so far; empty until the server has written its first line. */
export function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The pids of every "ready" or "list" line, in order. */
export function logEntries(file: string, kind: 'ready' | 'list'): number[] {
  return [...readLog(file).matchAll(new RegExp(`^${kind} (\\d+)$`, 'gm'))].map((m) => Number(m[1]));
}

/** True while a process with this pid exists (signal 0 checks without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
