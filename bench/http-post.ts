// `npm run bench:http-post`: the Streamable HTTP transport's POST, four ways, against one server
// in another process, interleaved in one run: the transport's own path (src/mcp/transport/lean-post.ts:
// undici's request() with its reply checks and bounds), bare undici request() with a keep-alive
// Agent, a bare node:http request on a keep-alive agent (what lean-post.ts was built on before),
// and Node's fetch. Each round makes CALLS sequential POSTs per way; the figures are
// the medians over ROUNDS rounds of the per-call latency and the client's CPU per call
// (process.cpuUsage), and ratios against lean-post. The server's work is the same for all three.
//   BENCH_ROUNDS (default 5), BENCH_CALLS (default 3000)
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { leanFetch } from '../src/mcp/transport/lean-post';
import { readableReply } from '../src/mcp/transport/readable-reply-fetch';
import { median } from './measure';
import { forkServer } from './server-child';

const ROUNDS = Number(process.env.BENCH_ROUNDS) || 5;
const CALLS = Number(process.env.BENCH_CALLS) || 3000;
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'HassTurnOn', arguments: { name: 'Kitchen Light' } } });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

type Way = { name: string; call: (url: string) => Promise<unknown> };

async function main(): Promise<void> {
  const server = await forkServer(join(__dirname, 'http-post-server.ts'));
  const lean = leanFetch(fetch, readableReply);
  const agent = new Agent({ keepAliveTimeout: 4000, connections: 1 });
  // One long-lived signal for every request, as the SDK's transport passes it. fetch and undici add
  // a listener to it per request (lean-post adds one in all): the warning that says so is silenced.
  const signal = new AbortController().signal;
  setMaxListeners(0, signal);
  const keepAlive = new http.Agent({ keepAlive: true, timeout: 4000 });
  const nodeHttp = (url: string) =>
    new Promise<unknown>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers: { ...HEADERS, 'content-length': Buffer.byteLength(BODY) }, agent: keepAlive }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(BODY);
    });
  const ways: Way[] = [
    {
      name: 'lean-post (transport)',
      call: async (url) => (await lean(url, { method: 'POST', body: BODY, headers: HEADERS, redirect: 'manual', signal })).json(),
    },
    {
      name: 'undici request()',
      call: async (url) => {
        const res = await request(url, { method: 'POST', body: BODY, headers: HEADERS, dispatcher: agent, signal });
        return JSON.parse(await res.body.text());
      },
    },
    { name: 'node:http request', call: nodeHttp },
    { name: 'fetch', call: async (url) => (await fetch(url, { method: 'POST', body: BODY, headers: HEADERS, signal })).json() },
  ];
  const latency = new Map<string, number[]>(ways.map((w) => [w.name, []]));
  const cpu = new Map<string, number[]>(ways.map((w) => [w.name, []]));
  try {
    for (const w of ways) for (let i = 0; i < 300; i++) await w.call(server.url); // warm up each way
    for (let round = 0; round < ROUNDS; round++) {
      // The order changes each round, so no way always runs first or last.
      for (const w of [...ways.slice(round % ways.length), ...ways.slice(0, round % ways.length)]) {
        const times: number[] = [];
        const before = process.cpuUsage();
        for (let i = 0; i < CALLS; i++) {
          const t = performance.now();
          await w.call(server.url);
          times.push(performance.now() - t);
        }
        const used = process.cpuUsage(before);
        latency.get(w.name)!.push(median(times));
        cpu.get(w.name)!.push((used.user + used.system) / CALLS);
      }
    }
  } finally {
    server.close();
    await agent.close();
    keepAlive.destroy();
  }
  const base = ways[0].name;
  const m = (xs: number[]) => median(xs);
  console.log(`bench:http-post, Node ${process.versions.node}: ${ROUNDS} interleaved rounds of ${CALLS} sequential POSTs per way, medians of rounds`);
  console.log('way                      p50 µs   vs lean   CPU µs/call   vs lean');
  for (const w of ways) {
    const p50 = m(latency.get(w.name)!) * 1000;
    const c = m(cpu.get(w.name)!);
    const ratio = (x: number, y: number) => (x / y).toFixed(2) + '×';
    console.log(
      `${w.name.padEnd(24)} ${p50.toFixed(0).padStart(6)}   ${ratio(p50, m(latency.get(base)!) * 1000).padStart(7)}   ${c.toFixed(1).padStart(11)}   ${ratio(c, m(cpu.get(base)!)).padStart(7)}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
