// How many xiaozhi devices one Node-RED process can hold: N simulated devices connect at once over
// WebSocket and over the mqtt-gateway; prints, per transport and N, the time until each device
// has its tools listed (p50, p99, from the moment the devices start dialling), the listener
// process's heap per connected device, the latency of a single tool call to one device among all
// of them (p50, p99, calls one after another), the throughput of calls to every device at once,
// and the warnings the listener logged. The devices run in a child process, so the memory and CPU
// figures are the listener's alone.
//
//   npm run bench:esp32                                        (N = 1,000, 5,000, 10,000; both transports)
//   ESP32_BENCH_N=100,200 ESP32_BENCH_TRANSPORTS=websocket npm run bench:esp32
//   ESP32_BENCH_DIAL=500 ...            (at most 500 devices dialling at a time)
//   BENCH_CHILD_PROF=/tmp/prof ...      (a CPU profile of the devices' process, to tell whose CPU ran out)
//
// Needs about N+100 file descriptors in each process (`ulimit -n`; 1024 is too few for N = 1000).
// Everything listens on 127.0.0.1 and every phase is bounded in time.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { SharedDeviceListener } from '../src/esp32/provider/shared-listener';
import type { DeviceEvent } from '../src/esp32/devices/device-session';
import { createEsp32ToolProvider } from '../src/esp32/provider/esp32-tool-provider';
import type { Esp32Transport } from '../src/esp32/devices/device-session';
import { freePort } from '../test/peers/free-port';

const READY_LIMIT_MS = 180_000;
/** Every device presents this token, as the firmware sends its OTA token. */
const TOKEN = 'bench-device-token';
const CALL_ROUNDS = 5;
/** Single calls, one after another, each to a device picked at random. */
const SINGLE_CALLS = 1000;
/** Devices dialling at the same moment (default: all of them, as after a power cut). */
const DIAL_CONCURRENCY = Number(process.env.ESP32_BENCH_DIAL ?? Infinity);

type Transport = Extract<Esp32Transport, 'websocket' | 'mqtt-gateway'>;

function mac(i: number): string {
  const hex = (i + 1).toString(16).padStart(6, '0');
  return `02:00:00:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}

// ---- child: the devices -------------------------------------------------------------------
async function runDevices(transport: Transport, url: string, n: number): Promise<void> {
  const { XiaozhiWsDevice, XiaozhiMqttDevice, ottoRobot } = await import('../test/peers/xiaozhi-device');
  const fixture = ottoRobot();
  const closers: Array<() => unknown> = [];
  process.on('message', (m: any) => {
    if (m === 'stop') {
      for (const c of closers) c();
      process.exit(0);
    }
  });
  const dial = async (i: number) => {
    if (transport === 'websocket') {
      const d = await XiaozhiWsDevice.connect({ url, deviceId: mac(i), token: TOKEN, fixture });
      closers.push(() => d.close());
    } else {
      const d = await XiaozhiMqttDevice.connect({ brokerUrl: url, deviceId: mac(i), mode: 'stock', password: TOKEN, fixture });
      closers.push(() => d.client.end(true));
    }
  };
  process.send!({ kind: 'connecting', at: performance.timeOrigin + performance.now() });
  let failed = 0;
  let firstError: string | undefined;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(DIAL_CONCURRENCY, n) }, async () => {
      while (next < n) {
        const i = next++;
        await dial(i).catch((err: unknown) => {
          failed++;
          firstError ??= String(err);
        });
      }
    }),
  );
  process.send!({ kind: 'connected', ok: n - failed, failed, firstError });
}

// ---- parent: the listener -----------------------------------------------------------------
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function heap(): number {
  (globalThis as any).gc?.();
  (globalThis as any).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

interface Row {
  transport: Transport;
  n: number;
  ready: number;
  timedOut: boolean;
  listedP50: number;
  listedP99: number;
  heapKb: number;
  callP50: number;
  callP99: number;
  callsPerSecond: number;
  callErrors: number;
  warnings: string[];
}

async function runOnce(transport: Transport, n: number): Promise<Row> {
  const warnings: string[] = [];
  const log = { debug() {}, warn: (m: string) => warnings.push(m) };
  let server: Server | undefined;
  let shared: SharedDeviceListener;
  let url: string;
  if (transport === 'websocket') {
    server = createServer((_q, r) => r.writeHead(404).end());
    server.maxConnections = n + 100;
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', 2048, () => r()));
    shared = new SharedDeviceListener(`bench-${n}`, { transport, tokens: [TOKEN], requestTimeoutMs: 60_000 }, { httpServer: server, log });
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/xiaozhi/v1/`;
  } else {
    const port = await freePort();
    shared = new SharedDeviceListener(`bench-${n}`, { transport, port, bind: '127.0.0.1', tokens: [TOKEN], requestTimeoutMs: 60_000 }, { log });
    url = `mqtt://127.0.0.1:${port}`;
  }
  const benchUser = {};
  await shared.register(benchUser);
  const listener = shared.listener!;

  const before = heap();
  const readyAt = new Map<string, number>();
  let allReady!: () => void;
  const allReadyP = new Promise<void>((r) => (allReady = r));
  listener.registry.on('event', (e: DeviceEvent) => {
    if (e.topic === 'tools') {
      readyAt.set(e.device.id, performance.timeOrigin + performance.now());
      if (readyAt.size === n) allReady();
    }
  });

  const child: ChildProcess = fork(__filename, ['devices', transport, url, String(n)], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CHILD_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_CHILD_PROF] : [])],
    stdio: 'inherit',
  });
  let startedAt = 0;
  let connectReport: any;
  child.on('message', (m: any) => {
    if (m.kind === 'connecting') startedAt = m.at;
    if (m.kind === 'connected') connectReport = m;
  });
  let limit: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([allReadyP.then(() => false), new Promise<boolean>((r) => (limit = setTimeout(() => r(true), READY_LIMIT_MS)))]);
  clearTimeout(limit);
  const latencies = [...readyAt.values()].map((t) => t - startedAt).sort((a, b) => a - b);
  const after = heap();

  const row: Row = {
    transport,
    n,
    ready: readyAt.size,
    timedOut,
    listedP50: percentile(latencies, 50),
    listedP99: percentile(latencies, 99),
    heapKb: (after - before) / readyAt.size / 1024,
    callP50: NaN,
    callP99: NaN,
    callsPerSecond: NaN,
    callErrors: 0,
    warnings,
  };
  if (!timedOut) {
    const provider = createEsp32ToolProvider({ id: 'bench', name: 'bench', source: shared, timeoutMs: 30_000 });
    const ids = listener.registry.list().map((s) => s.id);
    // One device among all of them, one call at a time: what a flow's single call waits.
    const single: number[] = [];
    for (let k = 0; k < SINGLE_CALLS; k++) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const t0 = performance.now();
      await provider.callTool('self.audio_speaker.set_volume', { volume: k % 100 }, { context: { deviceId: id } }).catch(() => row.callErrors++);
      single.push(performance.now() - t0);
    }
    single.sort((a, b) => a - b);
    row.callP50 = percentile(single, 50);
    row.callP99 = percentile(single, 99);
    // Throughput: every device gets one call per round, all devices at once.
    let calls = 0;
    const t0 = performance.now();
    for (let round = 0; round < CALL_ROUNDS; round++) {
      const results = await Promise.allSettled(
        ids.map((id) => provider.callTool('self.audio_speaker.set_volume', { volume: round * 10 }, { context: { deviceId: id } })),
      );
      calls += results.length;
      row.callErrors += results.filter((r) => r.status === 'rejected').length;
    }
    row.callsPerSecond = calls / ((performance.now() - t0) / 1000);
    await provider.close();
  }
  if (connectReport?.failed) warnings.push(`${connectReport.failed} devices could not connect (${connectReport.firstError})`);

  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  await shared.deregister(benchUser);
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server!.close(r));
  }
  return row;
}

const fmt = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms).toLocaleString('en')} ms` : '-');

async function main(): Promise<void> {
  if (process.argv[2] === 'devices') return runDevices(process.argv[3] as Transport, process.argv[4], Number(process.argv[5]));
  if (!(globalThis as any).gc) console.log('(run with --expose-gc for steadier memory figures)');
  const sizes = (process.env.ESP32_BENCH_N ?? '1000,5000,10000').split(',').map(Number);
  const transports = (process.env.ESP32_BENCH_TRANSPORTS ?? 'websocket,mqtt-gateway').split(',') as Transport[];
  console.log(
    `esp32-scale: otto-robot simulator (20 tools, 2 tools/list pages), ${Number.isFinite(DIAL_CONCURRENCY) ? `devices dialling ${DIAL_CONCURRENCY} at a time` : 'all devices dialling at once'}; ` +
      `targets: all ready, tools listed p99 < 1 s at 1,000 and < 5 s at 10,000, < 25 KB heap per device, a single call p99 < 50 ms, no warnings`,
  );
  console.log('| transport | devices | ready | tools listed p50 / p99 | heap per device | one call p50 / p99 | calls to all at once | warnings |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const transport of transports) {
    for (const n of sizes) {
      const r = await runOnce(transport, n);
      console.log(
        `| ${r.transport} | ${n.toLocaleString('en')} | ${r.ready.toLocaleString('en')}${r.timedOut ? ' (timed out)' : ''} | ${fmt(r.listedP50)} / ${fmt(r.listedP99)} | ` +
          `${r.heapKb.toFixed(1)} KB | ${r.callP50.toFixed(1)} / ${r.callP99.toFixed(1)} ms | ${Math.round(r.callsPerSecond).toLocaleString('en')}/s${r.callErrors ? `, ${r.callErrors} errors` : ''} | ` +
          `${r.warnings.length}${r.warnings.length ? ` (${r.warnings[0].slice(0, 120)})` : ''} |`,
      );
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
