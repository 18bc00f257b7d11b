// bench/endpoint: what does serving a tool from a flow cost? The same @modelcontextprotocol/client
// (in this process) calls the same echo tool
//   (a) on a bare @modelcontextprotocol/server (createMcpHandler on node:http), in a process of its own,
//       with the same bearer token check, and
//   (b) on mcp-endpoint in Node-RED as users run it (its own process, the built package, no test
//       helper spying on every node method): mcp-tool-in -> mcp-tool-out, bearer token on,
// both over Streamable HTTP 2026-07-28, sequentially and at concurrency 16, in alternating rounds so
// machine noise hits both alike. Prints median latency, calls/s and the ratios (goal: >= 0.95x).
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
const CONCURRENCY = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'bench-token';
const schema = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };

async function clientFor(url: string, token?: string): Promise<CallFn> {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as any);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined));
  return async (i) => {
    const r = await client.callTool({ name: 'echo', arguments: { text: `m${i}` } });
    if (r.isError || (r.structuredContent as { text?: string })?.text !== `m${i}`) throw new Error(`call ${i} got a wrong answer`);
  };
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
  const viaBare = await clientFor(bare.url, TOKEN);
  // The endpoint answers once the deploy has started its flow.
  const viaFlow = await retrying(() => clientFor(`${nodeRed.url}/mcp`, TOKEN));
  for (const call of [viaBare, viaFlow]) await sequential(call, 100); // warm-up: JIT, sockets, schema compile

  const seq = { bare: [] as number[], flow: [] as number[] };
  const conc = { bare: [] as number[], flow: [] as number[] };
  // CPU time of the serving process per call (utime + stime from /proc): what a call costs the machine.
  const cpu = { bare: [] as number[], flow: [] as number[] };
  // The bench's own CPU per call at concurrency 16: the client runs on one thread, and when it is busy
  // all the time it, not the server, sets the calls per second (then the row reads near 1 ms per
  // call and a core's worth of the phase's time).
  const client = { bare: [] as number[], flow: [] as number[] };
  const clientBusy = { bare: [] as number[], flow: [] as number[] };
  const pids = { bare: bare.pid, flow: nodeRed.pid };
  for (let round = 0; round < ROUNDS; round++) {
    // A different one goes first each round.
    const order = round % 2 ? (['flow', 'bare'] as const) : (['bare', 'flow'] as const);
    for (const which of order) {
      const call = which === 'bare' ? viaBare : viaFlow;
      const cpu0 = cpuMs(pids[which]);
      seq[which].push(...(await sequential(call, SEQUENTIAL)));
      const [self0, wall0] = [process.cpuUsage(), performance.now()];
      conc[which].push(await concurrent(call, CONCURRENT_TOTAL, CONCURRENCY));
      const self = process.cpuUsage(self0);
      client[which].push((self.user + self.system) / 1000 / CONCURRENT_TOTAL);
      clientBusy[which].push((self.user + self.system) / 1000 / (performance.now() - wall0));
      cpu[which].push((cpuMs(pids[which]) - cpu0) / (SEQUENTIAL + CONCURRENT_TOTAL));
    }
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const seqRate = (times: number[]) => (times.length / sum(times)) * 1000;
  const rows = [
    ['sequential median latency (ms)', median(seq.bare), median(seq.flow), median(seq.flow) / median(seq.bare)],
    ['sequential calls/s', seqRate(seq.bare), seqRate(seq.flow), seqRate(seq.flow) / seqRate(seq.bare)],
    [`concurrency ${CONCURRENCY} calls/s (median of rounds)`, median(conc.bare), median(conc.flow), median(conc.flow) / median(conc.bare)],
    ['server CPU ms per call (median of rounds)', median(cpu.bare), median(cpu.flow), median(cpu.flow) / median(cpu.bare)],
    [`bench client CPU ms per call at ${CONCURRENCY}`, median(client.bare), median(client.flow), median(client.flow) / median(client.bare)],
    [
      `bench client busy at ${CONCURRENCY} (share of a core)`,
      median(clientBusy.bare),
      median(clientBusy.flow),
      median(clientBusy.flow) / median(clientBusy.bare),
    ],
  ] as const;
  console.log(
    `bench/endpoint: ${ROUNDS} rounds x (${SEQUENTIAL} sequential + ${CONCURRENT_TOTAL} at concurrency ${CONCURRENCY}); ${runtimeFolder ? `Node-RED from ${runtimeFolder}` : `Node ${process.version}, this repository's Node-RED`}, each server in its own process`,
  );
  console.log('metric'.padEnd(42), 'bare SDK server'.padStart(16), 'tool-in->tool-out'.padStart(18), 'ratio'.padStart(8));
  for (const [name, b, f, ratio] of rows)
    console.log(name.padEnd(42), b.toFixed(2).padStart(16), f.toFixed(2).padStart(18), `${ratio.toFixed(2)}x`.padStart(8));
  const throughput = Math.min(rows[1][3], rows[2][3]);
  console.log(`throughput ratio (worst of sequential and concurrent): ${throughput.toFixed(2)}x (goal >= 0.95x)`);
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
