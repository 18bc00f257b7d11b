// How many xiaozhi devices one Node-RED process can hold: N simulated devices (100, 500, 1000)
// connect over WebSocket at once; prints the time until each has its tools listed (p50, p99), the
// listener process's memory per connected device, and tool-call throughput across all devices.
// The devices run in a child process so the memory figure is the listener's alone.
//
//   node --expose-gc --import tsx bench/esp32-scale.ts            (N = 100, 500, 1000)
//   ESP32_BENCH_N=100,200 node --expose-gc --import tsx bench/esp32-scale.ts
//
// Needs about N+100 file descriptors in each process (`ulimit -n`; 1024 is too few for N = 1000).
// Everything listens on 127.0.0.1 and every phase is bounded in time.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SharedDeviceListener } from '../src/esp32/shared-listener';
import type { DeviceEvent } from '../src/esp32/device-session';
import { createEsp32ToolProvider } from '../src/esp32/esp32-tool-provider';

const READY_LIMIT_MS = 120_000;
/** Every device presents this token, as the firmware sends its OTA token. */
const TOKEN = 'bench-device-token';
const CALL_ROUNDS = 5;

function mac(i: number): string {
  const hex = (i + 1).toString(16).padStart(6, '0');
  return `02:00:00:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}

// ---- child: the devices -------------------------------------------------------------------
async function runDevices(url: string, n: number): Promise<void> {
  const { XiaozhiWsDevice, ottoRobot } = await import('../test/peers/xiaozhi-device');
  const fixture = ottoRobot();
  const devices: any[] = [];
  process.on('message', (m: any) => {
    if (m === 'stop') {
      for (const d of devices) d.close();
      process.exit(0);
    }
  });
  process.send!({ kind: 'connecting', at: performance.timeOrigin + performance.now() });
  const results = await Promise.allSettled(
    Array.from({ length: n }, (_, i) => XiaozhiWsDevice.connect({ url, deviceId: mac(i), token: TOKEN, fixture }).then((d) => devices.push(d))),
  );
  const failed = results.filter((r) => r.status === 'rejected');
  process.send!({
    kind: 'connected',
    ok: n - failed.length,
    failed: failed.length,
    firstError: failed[0] && String((failed[0] as PromiseRejectedResult).reason),
  });
}

// ---- parent: the listener -----------------------------------------------------------------
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function memory(): { heap: number; rss: number } {
  (globalThis as any).gc?.();
  (globalThis as any).gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed + m.external + m.arrayBuffers, rss: m.rss };
}

async function runOnce(n: number): Promise<void> {
  const server = createServer((_q, r) => r.writeHead(404).end());
  server.maxConnections = n + 100;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', 2048, () => r()));
  const shared = new SharedDeviceListener(`bench-${n}`, { transport: 'websocket', tokens: [TOKEN], requestTimeoutMs: 60_000 }, { httpServer: server });
  const benchUser = {};
  await shared.register(benchUser);
  const listener = shared.listener!;
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/xiaozhi/v1/`;

  const before = memory();
  const readyAt = new Map<string, number>();
  let allReady!: () => void;
  const allReadyP = new Promise<void>((r) => (allReady = r));
  listener.registry.on('event', (e: DeviceEvent) => {
    if (e.topic === 'tools') {
      readyAt.set(e.device.id, performance.timeOrigin + performance.now());
      if (readyAt.size === n) allReady();
    }
  });

  const child: ChildProcess = fork(__filename, ['devices', url, String(n)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  let startedAt = 0;
  let connectReport: any;
  child.on('message', (m: any) => {
    if (m.kind === 'connecting') startedAt = m.at;
    if (m.kind === 'connected') connectReport = m;
  });
  const timedOut = await Promise.race([allReadyP.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), READY_LIMIT_MS).unref())]);
  const latencies = [...readyAt.values()].map((t) => t - startedAt).sort((a, b) => a - b);
  const after = memory();

  // Throughput: every device gets one call per round, all rounds concurrently per device count.
  let calls = 0;
  let callErrors = 0;
  let callSeconds = NaN;
  if (!timedOut) {
    const provider = createEsp32ToolProvider({ id: 'bench', name: 'bench', source: shared, timeoutMs: 30_000 });
    const ids = listener.registry.list().map((s) => s.id);
    const t0 = performance.now();
    for (let round = 0; round < CALL_ROUNDS; round++) {
      const results = await Promise.allSettled(
        ids.map((id) => provider.callTool('self.audio_speaker.set_volume', { volume: round * 10 }, { context: { deviceId: id } })),
      );
      calls += results.length;
      callErrors += results.filter((r) => r.status === 'rejected').length;
    }
    callSeconds = (performance.now() - t0) / 1000;
    await provider.close();
  }

  const perDeviceHeapKb = (after.heap - before.heap) / readyAt.size / 1024;
  const perDeviceRssKb = (after.rss - before.rss) / readyAt.size / 1024;
  console.log(
    [
      `N=${n}`,
      `ready ${readyAt.size}/${n}${timedOut ? ' (TIMED OUT)' : ''}`,
      connectReport?.failed ? `connect failures ${connectReport.failed} (${connectReport.firstError})` : '',
      `tools listed p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms`,
      `memory/device heap ${perDeviceHeapKb.toFixed(1)} KB, rss ${perDeviceRssKb.toFixed(1)} KB`,
      `calls ${calls} in ${callSeconds.toFixed(2)} s = ${(calls / callSeconds).toFixed(0)}/s, errors ${callErrors}`,
    ]
      .filter(Boolean)
      .join(' | '),
  );

  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  await shared.deregister(benchUser);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

async function main(): Promise<void> {
  if (process.argv[2] === 'devices') return runDevices(process.argv[3], Number(process.argv[4]));
  if (!(globalThis as any).gc) console.log('(run with --expose-gc for steadier memory figures)');
  const sizes = (process.env.ESP32_BENCH_N ?? '100,500,1000').split(',').map(Number);
  console.log(`esp32-scale: otto-robot simulator (20 tools, 2 tools/list pages), ${CALL_ROUNDS} call rounds; goal 1,000 ready, < 200 KB/device`);
  for (const n of sizes) await runOnce(n);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
