import { readFileSync } from 'node:fs';
// The measuring loops every benchmark shares: sequential latencies, throughput at a fixed
// concurrency, and the median, so two benchmarks cannot measure "the same thing" differently.
export type CallFn = (i: number) => Promise<void>;

/** Each call's latency in ms, one call after another. */
export async function sequential(call: CallFn, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(i);
    times.push(performance.now() - t);
  }
  return times;
}

/** Calls per second with `concurrency` callers sharing `total` calls. */
export async function concurrent(call: CallFn, total: number, concurrency: number): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await call(next++);
    }),
  );
  return (total / (performance.now() - t)) * 1000;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** utime + stime of a process, in ms (clock ticks of 10 ms), from /proc. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
