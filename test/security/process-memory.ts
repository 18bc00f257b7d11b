// The resident memory of another process, sampled from /proc while an attack runs: the peak growth
// over the value before it is what a flood made that process hold.
import { readFileSync } from 'node:fs';

export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

/** Runs `attack` while sampling the process every 20 ms; resolves with its result and the peak growth. */
export async function peakGrowthDuring<T>(pid: number, attack: () => Promise<T>): Promise<{ result: T; growthBytes: number; beforeBytes: number }> {
  const beforeBytes = rssBytes(pid);
  let peak = beforeBytes;
  const timer = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 20);
  try {
    const result = await attack();
    peak = Math.max(peak, rssBytes(pid));
    return { result, growthBytes: peak - beforeBytes, beforeBytes };
  } finally {
    clearInterval(timer);
  }
}

export const MB = 1024 * 1024;
