// bench/peers: one MCP tool call as a flow makes it, side by side with the other ways to make it.
// One MCP server (the paginated bench peer: stateless Streamable HTTP, JSON replies, in its own
// process), one Node-RED process with every system on the same trigger (`http in` → the system →
// `http response`, keep-alive POSTs), and the bare clients calling the server directly:
//
//   http floor        http in → http response, no MCP: what Node-RED itself costs
//   mcp-call-tool     http in → our mcp-call-tool (arguments checked against the tool's schema) → http response
//   ..., not checked  the same node with its argument check off: what the check costs
//   peer mcp-tool-call  the same through node-red-contrib-mcp's mcp-tool-call (PEER_MCP_PACKAGE=<folder>)
//   bare SDK v2       the @modelcontextprotocol/client this package bundles, called directly
//   bare SDK v1       the SDK 1.x client (the peer's, else whichever node_modules holds), directly
//   stdio: …          the same over stdio (bench/peers-stdio-server.mjs, one child per client):
//                     mcp-call-tool against the bare SDK v2 and v1 stdio clients, and the SDK v2 client
//                     sending the same request as ours (revision 2026-07-28 pinned, the same declared
//                     capabilities); ours minus the http floor is compared with it. node-red-contrib-mcp
//                     has no stdio transport (http, sse and json-rpc only), so it has no stdio row.
//
// The systems are interleaved round by round, so the shared machine's noise falls on all of them.
// Per system: median sequential latency (p50), calls per second at 16 in flight, and the Node-RED
// process's CPU time per call (utime + stime from /proc, for the rows that run inside it).
//
// PEER_MCP_PACKAGE: the folder of node-red-contrib-mcp (github.com/BavarianAnalyst/node-red-contrib-mcp
// at dd30b40, version 1.0.3, with `npm install --omit=dev` run in it); it is not on the npm registry.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { startNodeRed } from '../test/helpers/node-red';
import { concurrent, cpuMs, median, sequential, type CallFn } from './measure';
import { forkServer } from './server-child';
import { CLIENT_CAPABILITIES } from '../src/mcp/session';

const SAME_REQUEST_STDIO = 'stdio: bare SDK v2, same request as ours';

const SEQUENTIAL = Number(process.env.BENCH_SEQ ?? 200);
const CONCURRENT_TOTAL = Number(process.env.BENCH_CONC_TOTAL ?? 600);
const CONCURRENCY = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const STDIO_SERVER = join(__dirname, 'peers-stdio-server.mjs');
const peerFolder = process.env.PEER_MCP_PACKAGE ? resolve(process.env.PEER_MCP_PACKAGE) : undefined;

interface System {
  name: string;
  call: CallFn;
  /** Runs inside the Node-RED process: its CPU per call is measured. */
  inNodeRed: boolean;
  latencies: number[];
  throughputs: number[];
  cpuMsPerCall: number[];
  /** CPU per call of the MCP server process (the HTTP rows; stdio rows start a server of their own). */
  serverCpuMsPerCall: number[];
}

/** A bare client's row: the call made directly, an error result failing the row. */
function bareCall(client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: unknown }> }, what: string): CallFn {
  return async (i) => {
    const r = await client.callTool({ name: 'tool-01', arguments: { text: `m${i}` } });
    if (r.isError) throw new Error(`${what}: the call failed`);
  };
}

function flowPost(base: string, path: string): CallFn {
  return async (i) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: `m${i}` }) });
    const text = await res.text();
    if (res.status !== 200 || !text.includes(`m${i}`)) throw new Error(`${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
  };
}

/** The SDK 1.x client as its users import it: the peer's own copy, else whichever this repository's node_modules holds. */
function sdkV1(): { folder: string; Client: any; Transport: any; StdioTransport: any } | undefined {
  for (const from of [peerFolder, resolve(__dirname, '..')]) {
    if (!from) continue;
    try {
      const client = require.resolve('@modelcontextprotocol/sdk/client/index.js', { paths: [from] });
      const transport = require.resolve('@modelcontextprotocol/sdk/client/streamableHttp.js', { paths: [from] });
      const stdio = require.resolve('@modelcontextprotocol/sdk/client/stdio.js', { paths: [from] });
      const folder = client.slice(0, client.lastIndexOf('/dist/'));
      return {
        folder,
        Client: require(client).Client,
        Transport: require(transport).StreamableHTTPClientTransport,
        StdioTransport: require(stdio).StdioClientTransport,
      };
    } catch {
      /* not there */
    }
  }
  return undefined;
}

async function main() {
  const server = await forkServer(join(__dirname, 'peers-server.ts'));
  if (peerFolder && !existsSync(join(peerFolder, 'node_modules', '@modelcontextprotocol', 'sdk'))) {
    throw new Error(`${peerFolder}: run \`npm install --omit=dev\` in it first (the peer needs its own SDK)`);
  }
  // BENCH_CPU_PROF=<folder>: Node-RED writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}`] : [];
  // BENCH_NODE_RED=<folder>: another Node-RED (and the Node beside it), e.g. .tools/nr5 (Node 24 + Node-RED 5, the add-on's).
  const runtimeFolder = process.env.BENCH_NODE_RED ? resolve(process.env.BENCH_NODE_RED) : undefined;
  const nodeRed = await startNodeRed({
    installed: {
      runtime: runtimeFolder ? { folder: runtimeFolder, node: join(runtimeFolder, 'node_modules', '.bin', 'node') } : undefined,
      extraPackages: peerFolder ? { 'node-red-contrib-mcp': peerFolder } : {},
      nodeArgs: profile,
    },
  });
  const closers: Array<() => unknown> = [() => nodeRed.stop(), () => server.close()];
  try {
    const z = 'bench';
    const flows: any[] = [
      { id: z, type: 'tab', label: 'bench' },
      { id: 'floor-in', type: 'http in', z, url: '/floor', method: 'post', wires: [['floor-out']] },
      { id: 'floor-out', type: 'http response', z, wires: [] },
      { id: 'srv', type: 'mcp-server', name: 'bench', transport: 'http', url: server.url },
      { id: 'ours-in', type: 'http in', z, url: '/ours', method: 'post', wires: [['ours-call']] },
      { id: 'ours-call', type: 'mcp-call-tool', z, server: 'srv', tool: 'tool-01', wires: [['ours-out'], []] },
      { id: 'ours-out', type: 'http response', z, wires: [] },
      // The same node with argument checking off: what the check costs.
      { id: 'lax-in', type: 'http in', z, url: '/lax', method: 'post', wires: [['lax-call']] },
      { id: 'lax-call', type: 'mcp-call-tool', z, server: 'srv', tool: 'tool-01', validate: false, wires: [['lax-out'], []] },
      { id: 'lax-out', type: 'http response', z, wires: [] },
      // The same call over stdio, to the same tools in a child process.
      { id: 'stdio-srv', type: 'mcp-server', name: 'bench stdio', transport: 'stdio', command: process.execPath, args: [STDIO_SERVER] },
      { id: 'stdio-in', type: 'http in', z, url: '/stdio', method: 'post', wires: [['stdio-call']] },
      { id: 'stdio-call', type: 'mcp-call-tool', z, server: 'stdio-srv', tool: 'tool-01', wires: [['stdio-out'], []] },
      { id: 'stdio-out', type: 'http response', z, wires: [] },
      { id: 'catch', type: 'catch', z, scope: null, wires: [['fail-out']] },
      { id: 'fail-out', type: 'http response', z, statusCode: '500', wires: [] },
    ];
    if (peerFolder) {
      flows.push(
        { id: 'peer-srv', type: 'mcp-server-config', name: 'bench', url: server.url, transportType: 'http' },
        { id: 'peer-in', type: 'http in', z, url: '/peer', method: 'post', wires: [['peer-call']] },
        { id: 'peer-call', type: 'mcp-tool-call', z, server: 'peer-srv', toolName: 'tool-01', wires: [['peer-out']] },
        { id: 'peer-out', type: 'http response', z, wires: [] },
      );
    }
    await nodeRed.deploy(flows);
    const base = nodeRed.url;

    const v2 = new Client({ name: 'bench-bare-v2', version: '1' });
    await v2.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    closers.push(() => v2.close());
    const systems: System[] = [];
    const add = (name: string, call: CallFn, inNodeRed: boolean) =>
      systems.push({ name, call, inNodeRed, latencies: [], throughputs: [], cpuMsPerCall: [], serverCpuMsPerCall: [] });
    const addBare = (name: string, client: Parameters<typeof bareCall>[0]) => add(name, bareCall(client, name), false);
    add('http floor (no MCP)', flowPost(base, '/floor'), true);
    add('mcp-call-tool (ours)', flowPost(base, '/ours'), true);
    add('mcp-call-tool, arguments not checked', flowPost(base, '/lax'), true);
    if (peerFolder) add('node-red-contrib-mcp mcp-tool-call', flowPost(base, '/peer'), true);
    addBare('bare SDK v2 client', v2);
    const sdk = sdkV1();
    if (sdk) {
      const v1 = new sdk.Client({ name: 'bench-bare-v1', version: '1' });
      await v1.connect(new sdk.Transport(new URL(server.url)));
      closers.push(() => v1.close());
      const version = JSON.parse(readFileSync(join(sdk.folder, 'package.json'), 'utf8')).version;
      addBare(`bare SDK v1 client (${version})`, v1);
    }

    add('stdio: mcp-call-tool (ours)', flowPost(base, '/stdio'), true);
    const v2stdio = new Client({ name: 'bench-bare-v2-stdio', version: '1' });
    await v2stdio.connect(new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] }));
    closers.push(() => v2stdio.close());
    addBare('stdio: bare SDK v2 client', v2stdio);
    // The same request ours sends: mcp-server negotiates 2026-07-28 with this server, and every
    // request of that revision carries the client's capabilities (ours declares input requests and
    // the tasks extension), so the fair baseline pins the revision and declares the same.
    const sameStdio = new Client({ name: 'bench-bare-v2-stdio-same', version: '1' }, {
      capabilities: CLIENT_CAPABILITIES,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    } as never);
    await sameStdio.connect(new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] }));
    closers.push(() => sameStdio.close());
    addBare(SAME_REQUEST_STDIO, sameStdio);
    if (sdk) {
      const v1stdio = new sdk.Client({ name: 'bench-bare-v1-stdio', version: '1' });
      await v1stdio.connect(new sdk.StdioTransport({ command: process.execPath, args: [STDIO_SERVER] }));
      closers.push(() => v1stdio.close());
      addBare('stdio: bare SDK v1 client', v1stdio);
    }

    // BENCH_ONLY=ours,floor keeps the rows whose names contain one of these (e.g. to profile one);
    // an entry starting with "=" names one row exactly (=mcp-call-tool (ours) leaves out its stdio row).
    const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
    const picked = (name: string) => only!.some((o) => (o.startsWith('=') ? name === o.slice(1) : name.includes(o)));
    if (only) systems.splice(0, systems.length, ...systems.filter((s) => picked(s.name)));
    // Warm-up: connections, JIT, the nodes' sessions and tool caches; a broken row fails here.
    for (const s of systems) await sequential(s.call, 100);
    for (let round = 0; round < ROUNDS; round++) {
      // A different system goes first each round.
      const order = systems.map((_, i) => systems[(i + round) % systems.length]);
      for (const s of order) {
        const [cpu0, server0] = [s.inNodeRed ? cpuMs(nodeRed.pid) : 0, cpuMs(server.pid)];
        s.latencies.push(...(await sequential(s.call, SEQUENTIAL)));
        s.throughputs.push(await concurrent(s.call, CONCURRENT_TOTAL, CONCURRENCY));
        if (s.inNodeRed) s.cpuMsPerCall.push((cpuMs(nodeRed.pid) - cpu0) / (SEQUENTIAL + CONCURRENT_TOTAL));
        s.serverCpuMsPerCall.push((cpuMs(server.pid) - server0) / (SEQUENTIAL + CONCURRENT_TOTAL));
      }
    }

    const ours = systems.find((s) => s.name.startsWith('mcp-call-tool'));
    const peer = systems.find((s) => s.name.startsWith('node-red-contrib-mcp'));
    const bareV2 = systems.find((s) => s.name.startsWith('bare SDK v2'));
    const row = (s: System) => ({
      system: s.name,
      'p50 ms': +median(s.latencies).toFixed(2),
      'calls/s @16': Math.round(median(s.throughputs)),
      'Node-RED CPU ms/call': s.inNodeRed ? +median(s.cpuMsPerCall).toFixed(2) : '-',
      // What the call costs the MCP server: a client's requests can make it work more or less.
      'server CPU ms/call': s.name.startsWith('stdio') || s.name.startsWith('http floor') ? '-' : +median(s.serverCpuMsPerCall).toFixed(2),
    });
    console.log(
      `bench:peers (${runtimeFolder ? `Node-RED from ${runtimeFolder}` : `Node ${process.version}, this repository's Node-RED`}; ${process.env.BENCH_SSE_REPLIES === '1' ? 'event-stream' : 'JSON'} replies) — ${ROUNDS} interleaved rounds of ${SEQUENTIAL} sequential + ${CONCURRENT_TOTAL} at ${CONCURRENCY} in flight; medians over rounds`,
    );
    console.table(systems.map(row));
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    const oursStdio = systems.find((s) => s.name === 'stdio: mcp-call-tool (ours)');
    const bareStdio = systems.find((s) => s.name === 'stdio: bare SDK v2 client');
    const bareV1Stdio = systems.find((s) => s.name === 'stdio: bare SDK v1 client');
    if (oursStdio && bareStdio) {
      console.log(
        `stdio: ours vs bare SDK v2: p50 ${ratio(median(oursStdio.latencies), median(bareStdio.latencies))}×` +
          (bareV1Stdio ? `, vs bare SDK v1: p50 ${ratio(median(oursStdio.latencies), median(bareV1Stdio.latencies))}×` : '') +
          ' (node-red-contrib-mcp has no stdio transport)',
      );
    }
    const floor = systems.find((s) => s.name === 'http floor (no MCP)');
    const same = systems.find((s) => s.name === SAME_REQUEST_STDIO);
    if (oursStdio && same && floor) {
      const above = median(oursStdio.latencies) - median(floor.latencies);
      console.log(
        `stdio: ours above the trigger floor ${above.toFixed(2)} ms vs the bare client sending the same request ${median(same.latencies).toFixed(2)} ms: ${ratio(above, median(same.latencies))}× (goal ≤ 1.3)`,
      );
    }
    if (ours && bareV2) console.log(`ours vs bare SDK v2:   p50 ${ratio(median(ours.latencies), median(bareV2.latencies))}×`);
    if (ours && peer) {
      console.log(
        `ours vs node-red-contrib-mcp: p50 ${ratio(median(ours.latencies), median(peer.latencies))}× (goal ≤ 0.9), ` +
          `throughput ${ratio(median(ours.throughputs), median(peer.throughputs))}× (goal ≥ 1.1), ` +
          `CPU/call ${ratio(median(ours.cpuMsPerCall), median(peer.cpuMsPerCall))}× (goal < 1)`,
      );
    } else {
      console.log(
        'node-red-contrib-mcp not measured: set PEER_MCP_PACKAGE=<folder> (its repository at dd30b40 with `npm install --omit=dev` run in it) to add its row.',
      );
    }
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
