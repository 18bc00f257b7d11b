// bench/endpoint: what does serving a tool from a flow cost? The same @modelcontextprotocol/client
// (in this process) calls the same echo tool
//   (a) on a bare @modelcontextprotocol/server (createMcpHandler on node:http), in a process of its own,
//       with the same bearer token check, and
//   (b) on mcp-endpoint in Node-RED as users run it (its own process, the built package, no test
//       helper spying on every node method): mcp-tool-in -> mcp-tool-out, bearer token on,
// over Streamable HTTP on both revisions (2026-07-28, stateless, and a 2025-11-25 session),
// sequentially and at 16 and 64 calls in flight, in alternating rounds so machine noise hits both
// alike. Prints median latency, calls/s, the serving process's CPU per call and the ratios (goal:
// >= 1.0x calls/s at 16 and 64 in flight with the same or less CPU per call).
// BENCH_NODE_RED=<folder>: another Node-RED (and the Node beside it), e.g. .tools/nr5 (the add-on's).
// BENCH_CPU_PROF=<folder>: Node-RED writes a V8 CPU profile there when it stops.
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startNodeRed } from '../test/helpers/node-red';

import { concurrent, cpuMs, median, sequential, type CallFn } from './measure';
import { forkServer } from './server-child';
import { retrying } from '../test/helpers/wait';
const SEQUENTIAL = Number(process.env.BENCH_SEQ ?? 300);
const CONCURRENT_TOTAL = Number(process.env.BENCH_CONC_TOTAL ?? 2000);
const CONCURRENCIES = (process.env.BENCH_CONCURRENCY ?? '16,64').split(',').map(Number);
const ERAS = (process.env.BENCH_ERAS ?? '2026-07-28,2025-11-25').split(',') as Era[];
type Era = '2026-07-28' | '2025-11-25';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'bench-token';
const schema = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };

async function clientFor(url: string, era: Era, token?: string): Promise<CallFn> {
  const options =
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [era] };
  const client = new Client({ name: 'bench', version: '1' }, options as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined));
  return async (i) => {
    const r = await client.callTool({ name: 'echo', arguments: { text: `m${i}` } });
    if (r.isError || (r.structuredContent as { text?: string })?.text !== `m${i}`) throw new Error(`call ${i} got a wrong answer`);
  };
}

async function measureEra(era: Era, bare: { url: string; pid: number }, nodeRed: { url: string; pid: number }): Promise<void> {
  const viaBare = await clientFor(bare.url, era, TOKEN);
  // The endpoint answers once the deploy has started its flow.
  const viaFlow = await retrying(() => clientFor(`${nodeRed.url}/mcp`, era, TOKEN));
  for (const call of [viaBare, viaFlow]) await sequential(call, 100); // warm-up: JIT, sockets, schema compile
  const seq = { bare: [] as number[], flow: [] as number[] };
  const conc = Object.fromEntries(CONCURRENCIES.map((c) => [c, { bare: [] as number[], flow: [] as number[] }]));
  // CPU time of the serving process per call (utime + stime from /proc): what a call costs the machine.
  const cpu = { bare: [] as number[], flow: [] as number[] };
  // The bench's own CPU per call in flight: the client runs on one thread, and when it is busy all
  // the time it, not the server, sets the calls per second (then the row reads near a core).
  const clientBusy = Object.fromEntries(CONCURRENCIES.map((c) => [c, { bare: [] as number[], flow: [] as number[] }]));
  const pids = { bare: bare.pid, flow: nodeRed.pid };
  for (let round = 0; round < ROUNDS; round++) {
    // A different one goes first each round.
    const order = round % 2 ? (['flow', 'bare'] as const) : (['bare', 'flow'] as const);
    for (const which of order) {
      const call = which === 'bare' ? viaBare : viaFlow;
      const cpu0 = cpuMs(pids[which]);
      seq[which].push(...(await sequential(call, SEQUENTIAL)));
      for (const c of CONCURRENCIES) {
        const [self0, wall0] = [process.cpuUsage(), performance.now()];
        conc[c][which].push(await concurrent(call, CONCURRENT_TOTAL, c));
        const self = process.cpuUsage(self0);
        clientBusy[c][which].push((self.user + self.system) / 1000 / (performance.now() - wall0));
      }
      cpu[which].push((cpuMs(pids[which]) - cpu0) / (SEQUENTIAL + CONCURRENT_TOTAL * CONCURRENCIES.length));
    }
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const seqRate = (times: number[]) => (times.length / sum(times)) * 1000;
  const rows: [string, number, number, number][] = [
    ['sequential median latency (ms)', median(seq.bare), median(seq.flow), median(seq.flow) / median(seq.bare)],
    ['sequential calls/s', seqRate(seq.bare), seqRate(seq.flow), seqRate(seq.flow) / seqRate(seq.bare)],
    ...CONCURRENCIES.map(
      (c) =>
        [`${c} in flight calls/s (median of rounds)`, median(conc[c].bare), median(conc[c].flow), median(conc[c].flow) / median(conc[c].bare)] as [
          string,
          number,
          number,
          number,
        ],
    ),
    ['server CPU ms per call (median of rounds)', median(cpu.bare), median(cpu.flow), median(cpu.flow) / median(cpu.bare)],
    ...CONCURRENCIES.map(
      (c) =>
        [
          `bench client busy at ${c} (share of a core)`,
          median(clientBusy[c].bare),
          median(clientBusy[c].flow),
          median(clientBusy[c].flow) / median(clientBusy[c].bare),
        ] as [string, number, number, number],
    ),
  ];
  console.log(`\n${era}: ${ROUNDS} rounds x (${SEQUENTIAL} sequential + ${CONCURRENT_TOTAL} at each of ${CONCURRENCIES.join(', ')} in flight)`);
  console.log('metric'.padEnd(42), 'bare SDK server'.padStart(16), 'tool-in->tool-out'.padStart(18), 'ratio'.padStart(8));
  for (const [name, b, f, ratio] of rows)
    console.log(name.padEnd(42), b.toFixed(2).padStart(16), f.toFixed(2).padStart(18), `${ratio.toFixed(2)}x`.padStart(8));
}

async function main() {
  const bare = await forkServer(join(__dirname, 'endpoint-bare-server.ts'), { BENCH_TOKEN: TOKEN });
  const runtimeFolder = process.env.BENCH_NODE_RED ? resolve(process.env.BENCH_NODE_RED) : undefined;
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`] : [];
  const nodeRed = await startNodeRed({
    installed: { runtime: runtimeFolder ? { folder: runtimeFolder, node: join(runtimeFolder, 'node_modules', '.bin', 'node') } : undefined, nodeArgs: profile },
  });
  await nodeRed.deploy([
    { id: 'bench', type: 'tab', label: 'bench' },
    { id: 'ep', type: 'mcp-endpoint', path: '/mcp', credentials: { tokens: TOKEN } },
    { id: 'in-echo', type: 'mcp-tool-in', z: 'bench', endpoint: 'ep', name: 'echo', inputSchema: schema, wires: [['out']] },
    { id: 'out', type: 'mcp-tool-out', z: 'bench', wires: [] },
  ]);
  for (const era of ERAS) await measureEra(era, bare, nodeRed);
  await nodeRed.stop();
  bare.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
