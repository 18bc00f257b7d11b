// bench/endpoint: what does serving a tool from a flow cost? In one process and one run, the same
// @modelcontextprotocol/client calls the same echo tool
//   (a) on a bare @modelcontextprotocol/server (createMcpHandler on node:http), and
//   (b) on mcp-endpoint in the real Node-RED runtime: mcp-tool-in -> mcp-tool-out (bearer token on),
// both over Streamable HTTP 2026-07-28, sequentially and at concurrency 16, in alternating rounds so
// machine noise hits both alike. Prints median latency, calls/s and the ratios (goal: throughput >= 0.7x).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { sendWebResponse, toWebRequest } from '../src/server/web-bridge';
import { baseUrl, loadFlow, startEndpointRuntime, stopEndpointRuntime } from '../test/server/harness';

import { concurrent, median, sequential, type CallFn } from './measure';
const SEQUENTIAL = Number(process.env.BENCH_SEQ ?? 300);
const CONCURRENT_TOTAL = Number(process.env.BENCH_CONC_TOTAL ?? 800);
const CONCURRENCY = 16;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOKEN = 'bench-token';
const schema = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };

/** The bare SDK server: the same echo tool, answering what mcp-tool-out answers for an object payload. */
async function startBareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(() => {
    const server = new Server({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: schema }] }));
    server.setRequestHandler('tools/call', (req) => {
      const args = req.params.arguments ?? {};
      return { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args };
    });
    return server;
  });
  const http = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    void toWebRequest(req, { signal: controller.signal })
      .then((r) => handler.fetch(r))
      .then((response) => sendWebResponse(response, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await Promise.all([new Promise((r) => http.close(r)), handler.close()]);
    },
  };
}

async function clientFor(url: string, token?: string): Promise<CallFn> {
  const client = new Client({ name: 'bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } } as any);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : undefined));
  return async (i) => {
    const r = await client.callTool({ name: 'echo', arguments: { text: `m${i}` } });
    if (r.isError || (r.structuredContent as { text?: string })?.text !== `m${i}`) throw new Error(`call ${i} got a wrong answer`);
  };
}

async function main() {
  const bare = await startBareServer();
  await startEndpointRuntime();
  await loadFlow(
    [
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp' },
      { id: 'in-echo', type: 'mcp-tool-in', endpoint: 'ep', name: 'echo', inputSchema: schema, wires: [['out']] },
      { id: 'out', type: 'mcp-tool-out' },
    ],
    { ep: { tokens: TOKEN } },
  );
  const viaBare = await clientFor(bare.url);
  const viaFlow = await clientFor(`${baseUrl}/mcp`, TOKEN);
  for (const call of [viaBare, viaFlow]) await sequential(call, 30); // warm-up: JIT, sockets, schema compile

  const seq = { bare: [] as number[], flow: [] as number[] };
  const conc = { bare: [] as number[], flow: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    seq.bare.push(...(await sequential(viaBare, SEQUENTIAL)));
    seq.flow.push(...(await sequential(viaFlow, SEQUENTIAL)));
    conc.bare.push(await concurrent(viaBare, CONCURRENT_TOTAL, CONCURRENCY));
    conc.flow.push(await concurrent(viaFlow, CONCURRENT_TOTAL, CONCURRENCY));
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const seqRate = (times: number[]) => (times.length / sum(times)) * 1000;
  const rows = [
    ['sequential median latency (ms)', median(seq.bare), median(seq.flow), median(seq.flow) / median(seq.bare)],
    ['sequential calls/s', seqRate(seq.bare), seqRate(seq.flow), seqRate(seq.flow) / seqRate(seq.bare)],
    [`concurrency ${CONCURRENCY} calls/s (median of rounds)`, median(conc.bare), median(conc.flow), median(conc.flow) / median(conc.bare)],
  ] as const;
  console.log(`bench/endpoint: ${ROUNDS} rounds x (${SEQUENTIAL} sequential + ${CONCURRENT_TOTAL} at concurrency ${CONCURRENCY}), node ${process.version}`);
  console.log('metric'.padEnd(42), 'bare SDK server'.padStart(16), 'tool-in->tool-out'.padStart(18), 'ratio'.padStart(8));
  for (const [name, b, f, ratio] of rows)
    console.log(name.padEnd(42), b.toFixed(2).padStart(16), f.toFixed(2).padStart(18), `${ratio.toFixed(2)}x`.padStart(8));
  const throughput = Math.min(rows[1][3], rows[2][3]);
  console.log(`throughput ratio (worst of sequential and concurrent): ${throughput.toFixed(2)}x (goal >= 0.70x)`);
  await stopEndpointRuntime();
  await bare.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
