// Servers started through a package runner (`npx -y pkg`, `uvx pkg`, `pnpm dlx pkg` …) download the
// package on their first start, which can take minutes on a slow line or a Raspberry Pi, while the
// MCP handshake normally gets the server's Timeout (60 s). Such a first start gets FIRST_START_MS
// instead, and the status says what is going on; once a command line has started in this process,
// the npm/uv cache holds it and the usual timeout applies again.
import { basename } from 'node:path';

export const FIRST_START_MS = 5 * 60_000;
/** How long a runner may be quiet before the status says it may be downloading. */
export const DOWNLOAD_HINT_AFTER_MS = 5_000;

const RUNNERS = new Set(['npx', 'uvx', 'bunx', 'pnpx']);
const RUNNER_SUBCOMMANDS: Record<string, string[]> = { pnpm: ['dlx'], yarn: ['dlx'], npm: ['exec', 'x'], uv: ['tool', 'run'], pipx: ['run'], bun: ['x'] };

/** The runner's name ("npx", "pnpm dlx" …) when the command line starts one, else undefined. */
export function packageRunner(command: string | undefined, args: readonly string[] = []): string | undefined {
  if (!command) return undefined;
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (RUNNERS.has(name)) return name;
  const sub = RUNNER_SUBCOMMANDS[name]?.find((s) => args[0] === s);
  return sub ? `${name} ${sub}` : undefined;
}

const started = new Set<string>();

/** The handshake timeout for this command line: the first start of a runner gets FIRST_START_MS. */
export function startTimeoutMs(command: string | undefined, args: readonly string[] | undefined, timeoutMs: number): number {
  if (!packageRunner(command, args)) return timeoutMs;
  return started.has(commandLine(command, args)) ? timeoutMs : Math.max(timeoutMs, FIRST_START_MS);
}

/** Remembers that this command line started once, so its package is in the runner's cache. */
export function markStarted(command: string | undefined, args: readonly string[] | undefined): void {
  if (packageRunner(command, args)) started.add(commandLine(command, args));
}

function commandLine(command: string | undefined, args: readonly string[] | undefined): string {
  return JSON.stringify([command, ...(args ?? [])]);
}

export interface StartWatch {
  /** The handshake timeout to use. */
  timeoutMs: number;
  /** The runner, when this start may be downloading. */
  runner?: string;
  /** The handshake answered: the package is cached from now on. */
  started(): void;
  /** The start ended either way. */
  stop(): void;
}

/**
 * One start of a stdio server: its handshake timeout, and `onQuiet(runner)` once if a runner's first
 * start has not answered after DOWNLOAD_HINT_AFTER_MS (the status and the log then say why it waits).
 */
export function watchStart(command: string | undefined, args: readonly string[] | undefined, timeoutMs: number, onQuiet: (runner: string) => void): StartWatch {
  const longer = startTimeoutMs(command, args, timeoutMs);
  const runner = longer > timeoutMs ? packageRunner(command, args) : undefined;
  const hint = runner ? setTimeout(() => onQuiet(runner), DOWNLOAD_HINT_AFTER_MS) : undefined;
  hint?.unref?.();
  return {
    timeoutMs: longer,
    runner,
    started: () => markStarted(command, args),
    stop: () => clearTimeout(hint),
  };
}
