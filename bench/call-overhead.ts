// bench/call-overhead: what does going through Node-RED and mcp-call-tool cost per tool call?
// In one process and one run, the same local Streamable HTTP peer is called
//   (a) by the bare @modelcontextprotocol/client Client, and
//   (b) through the real Node-RED runtime: input -> mcp-call-tool -> output,
// sequentially and at concurrency 16, in alternating rounds so machine noise hits both alike.
// A third row, (c) input -> change -> output, is Node-RED's own delivery of a message into a node and
// out of it with no MCP at all: the floor under (b) that no node can go below.
// A fourth, (d) the bare client sending the request the node sends: the same client capabilities
// (elicitation, the tasks extension) and a progress token. On 2026-07-28 a client's capabilities
// travel with every request and the server reads them each time, so (b)/(d) is what the node itself
// adds to one and the same request, and (d)/(a) what the node's features cost the server.
// Prints median latency and throughput for all rows and the ratios (goal: latency <= 1.15x (a)).
// BENCH_TRANSPORT=stdio: the same over stdio, both clients starting bench/peers-stdio-server.mjs.
// BENCH_SSE_REPLIES=1: the HTTP peer answers every request as an event stream instead of one JSON body.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startPaginatedServer } from '../test/peers/paginated-server';
import { CLIENT_CAPABILITIES } from '../src/mcp/session';
import { fromRuntime, helper, load, setFlows, startRuntime, stopRuntime } from '../test/helpers/runtime';

import { existsSync, readFileSync } from 'node:fs';
import { concurrent, cpuMs, median, sequential, type CallFn } from './measure';
const SEQUENTIAL = Number(process.env.BENCH_SEQ ?? 300);
const CONCURRENT_TOTAL = Number(process.env.BENCH_CONC_TOTAL ?? 800);
const CONCURRENCY = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const STDIO = process.env.BENCH_TRANSPORT === 'stdio';
// What users run: the built package (its runtime bundle, with the fixes the build applies to the
// SDK), once `npm run build` made it; BENCH_SOURCES=1, or no build, runs the TypeScript sources on
// the SDK as installed. The bare client is the SDK as installed either way.
const BUILT =
  process.env.BENCH_SOURCES !== '1' && existsSync(join(__dirname, '..', 'dist', 'nodes', 'shared', 'runtime.js'))
    ? join(__dirname, '..', 'dist', 'nodes')
    : undefined;
const STDIO_SERVER = join(__dirname, 'peers-stdio-server.mjs');

async function main() {
  const SSE = !STDIO && process.env.BENCH_SSE_REPLIES === '1';
  const peer = STDIO ? undefined : await startPaginatedServer({ toolCount: 3, pageSize: 10, sseReplies: SSE });

  const bareClient = async (same: boolean) => {
    const client = new Client({ name: 'bench-bare', version: '1' }, {
      versionNegotiation: { mode: 'auto' },
      ...(same ? { capabilities: CLIENT_CAPABILITIES } : {}),
    } as any);
    if (same) client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' as const }));
    const stdio = peer ? undefined : new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] });
    await client.connect(stdio ?? new StreamableHTTPClientTransport(new URL(peer!.url)));
    const options = same ? { onprogress: () => {}, resetTimeoutOnProgress: true } : undefined;
    const call: CallFn = async (i) => {
      const r = await client.callTool({ name: 'tool-01', arguments: { text: `m${i}` } }, options);
      if (r.isError) throw new Error('bare call failed');
    };
    return { client, stdio, call };
  };
  const plain = await bareClient(false);
  const same = await bareClient(true);
  const bare = plain.call;
  const bareSame = same.call;

  await startRuntime();
  const tab = { id: 'bench-tab', type: 'tab', label: 'bench' };
  const flow = [
    tab,
    peer
      ? { id: 'srv', type: 'mcp-server', transport: 'http', url: peer.url }
      : { id: 'srv', type: 'mcp-server', transport: 'stdio', command: process.execPath, args: [STDIO_SERVER] },
    { id: 'call', z: tab.id, type: 'mcp-call-tool', server: 'srv', tool: 'tool-01', wires: [['out'], []] },
    { id: 'floor', z: tab.id, type: 'change', rules: [{ t: 'set', p: 'topic', pt: 'msg', to: 'floor', tot: 'str' }], wires: [['out']] },
    { id: 'out', z: tab.id, type: 'helper' },
  ];
  const change = require(fromRuntime('@node-red/nodes/core/function/15-change.js'));
  if (BUILT) await helper.load([...['mcp-server', 'mcp-call-tool'].map((t) => require(join(BUILT, t, 'index.js'))), change] as any, flow as any);
  else await load(flow, {}, [change]);
  // The test helper spies on every node's send, status, log and error calls (sinon keeps each call's
  // arguments, and queues an event per call), a cost no user's Node-RED pays. The spies are removed
  // and the same flow deployed again, so the nodes are built on Node-RED's own methods.
  (helper as unknown as { _sandbox: { restore(): void } })._sandbox.restore();
  await setFlows(flow);
  const waiting = new Map<string, () => void>();
  helper.getNode('out').on('input', (msg: any) => waiting.get(msg.corr)?.());
  const through = (id: string): CallFn => {
    const node = helper.getNode(id);
    return (i) =>
      new Promise<void>((resolve) => {
        const corr = `c${i}-${Math.random()}`;
        waiting.set(corr, () => {
          waiting.delete(corr);
          resolve();
        });
        node.receive({ payload: { text: `m${i}` }, corr });
      });
  };
  const viaNode = through('call');
  const viaFloor = through('floor');

  // Warm-up: connections, JIT, the node's tool cache.
  await sequential(bare, 50);
  await sequential(bareSame, 50);
  await sequential(viaNode, 50);
  await sequential(viaFloor, 50);

  // Over stdio each client has a server process of its own: the CPU per call of this process and of
  // each client's server, over the sequential blocks (what a call costs on both sides of the pipe).
  const nodeServerPid = plain.stdio ? childPids().find((pid) => pid !== plain.stdio!.pid && pid !== same.stdio!.pid) : undefined;
  const cpuRow = () => ({ client: [] as number[], server: [] as number[] });
  const cpu = { bare: cpuRow(), same: cpuRow(), node: cpuRow() };
  const timedSequential = async (which: 'bare' | 'same' | 'node', call: CallFn) => {
    const serverPid = which === 'bare' ? plain.stdio?.pid : which === 'same' ? same.stdio?.pid : nodeServerPid;
    const own0 = process.cpuUsage();
    const server0 = serverPid ? cpuMs(serverPid) : 0;
    const latencies = await sequential(call, SEQUENTIAL);
    const own = process.cpuUsage(own0);
    cpu[which].client.push((own.user + own.system) / 1000 / SEQUENTIAL);
    if (serverPid) cpu[which].server.push((cpuMs(serverPid) - server0) / SEQUENTIAL);
    return latencies;
  };

  const lat = { bare: [] as number[], same: [] as number[], node: [] as number[], floor: [] as number[] };
  const tput = { bare: [] as number[], same: [] as number[], node: [] as number[], floor: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    lat.bare.push(...(await timedSequential('bare', bare)));
    lat.same.push(...(await timedSequential('same', bareSame)));
    lat.node.push(...(await timedSequential('node', viaNode)));
    lat.floor.push(...(await sequential(viaFloor, SEQUENTIAL)));
    tput.bare.push(await concurrent(bare, CONCURRENT_TOTAL, CONCURRENCY));
    tput.same.push(await concurrent(bareSame, CONCURRENT_TOTAL, CONCURRENCY));
    tput.node.push(await concurrent(viaNode, CONCURRENT_TOTAL, CONCURRENCY));
    tput.floor.push(await concurrent(viaFloor, CONCURRENT_TOTAL, CONCURRENCY));
  }

  const bareLat = median(lat.bare);
  const nodeLat = median(lat.node);
  const bareTput = median(tput.bare);
  const nodeTput = median(tput.node);
  console.log(
    `call-overhead (${STDIO ? 'stdio' : SSE ? 'Streamable HTTP, event-stream replies' : 'Streamable HTTP, JSON replies'}; mcp-call-tool from ${BUILT ? 'the built package' : 'the TypeScript sources'}): ${ROUNDS} rounds x ${SEQUENTIAL} sequential calls, ${CONCURRENT_TOTAL} calls at concurrency ${CONCURRENCY}`,
  );
  const sameLat = median(lat.same);
  const sameTput = median(tput.same);
  console.log(`  bare client    median latency ${bareLat.toFixed(3)} ms   throughput@16 ${bareTput.toFixed(0)} calls/s`);
  console.log(
    `  bare, same req median latency ${sameLat.toFixed(3)} ms   throughput@16 ${sameTput.toFixed(0)} calls/s (the node's capabilities and a progress token)`,
  );
  console.log(`  mcp-call-tool  median latency ${nodeLat.toFixed(3)} ms   throughput@16 ${nodeTput.toFixed(0)} calls/s`);
  const floorLat = median(lat.floor);
  console.log(`  Node-RED alone median latency ${floorLat.toFixed(3)} ms   throughput@16 ${median(tput.floor).toFixed(0)} calls/s (change node, no MCP)`);
  console.log(`  ratio latency node/bare = ${(nodeLat / bareLat).toFixed(3)} (goal <= 1.15)`);
  console.log(`  ratio throughput node/bare = ${(nodeTput / bareTput).toFixed(3)} `);
  console.log(
    `  the same request: latency node/bare-same = ${(nodeLat / sameLat).toFixed(3)}, throughput ${(nodeTput / sameTput).toFixed(3)}; bare-same/bare latency = ${(sameLat / bareLat).toFixed(3)}`,
  );
  console.log(
    `  the floor: (bare + Node-RED alone)/bare = ${((bareLat + floorLat) / bareLat).toFixed(3)}; the node's own cost above it: ${Math.max(0, nodeLat - bareLat - floorLat).toFixed(3)} ms per call`,
  );
  // What no node sending this request can go below: the server's work on the node's capabilities and
  // Node-RED's own delivery. The goal leaves the node's own features what is left under 1.15x.
  const requestFloor = sameLat + floorLat;
  console.log(
    `  the floor of the node's request: (bare-same + Node-RED alone)/bare = ${(requestFloor / bareLat).toFixed(3)}; the node's own cost above it: ${Math.max(0, nodeLat - requestFloor).toFixed(3)} ms per call (node/that floor = ${(nodeLat / requestFloor).toFixed(3)}); room under the goal for it: ${Math.max(0, 1.15 * bareLat - requestFloor).toFixed(3)} ms`,
  );

  if (nodeServerPid && cpu.node.server.length) {
    const f = (xs: number[]) => median(xs).toFixed(3);
    console.log(
      `  CPU per sequential call: bare client ${f(cpu.bare.client)} ms + its server ${f(cpu.bare.server)} ms; bare, same request ${f(cpu.same.client)} ms + ${f(cpu.same.server)} ms; mcp-call-tool's process ${f(cpu.node.client)} ms + its server ${f(cpu.node.server)} ms`,
    );
  }

  await plain.client.close();
  await same.client.close();
  await stopRuntime();
  await peer?.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);

/** This process's child processes (Linux): the stdio servers the two clients started. */
function childPids(): number[] {
  try {
    return readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
