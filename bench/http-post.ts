// `npm run bench:http-post`: the Streamable HTTP transport's POST, three ways, against one server
// in another process, interleaved in one run: our node:http path (src/mcp/lean-post.ts, what the
// transport uses), undici's request() with a keep-alive Agent (the library Node's own fetch is
// built on), and Node's fetch. Each round makes CALLS sequential POSTs per way; the figures are
// the medians over ROUNDS rounds of the per-call latency and the client's CPU per call
// (process.cpuUsage), and ratios against lean-post. The server's work is the same for all three.
//   BENCH_ROUNDS (default 5), BENCH_CALLS (default 3000)
import { setMaxListeners } from 'node:events';
import { Agent, request } from 'undici';
import { leanFetch } from '../src/mcp/lean-post';
import { readableReply } from '../src/mcp/readable-reply-fetch';
import { median } from './measure';
import { forkServer } from './server-child';

const ROUNDS = Number(process.env.BENCH_ROUNDS) || 5;
const CALLS = Number(process.env.BENCH_CALLS) || 3000;
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'HassTurnOn', arguments: { name: 'Kitchen Light' } } });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

type Way = { name: string; call: (url: string) => Promise<unknown> };

async function main(): Promise<void> {
  const server = await forkServer(new URL('./http-post-server.ts', import.meta.url).pathname);
  const lean = leanFetch(fetch, readableReply);
  const agent = new Agent({ keepAliveTimeout: 4000, connections: 1 });
  // One long-lived signal for every request, as the SDK's transport passes it. fetch and undici add
  // a listener to it per request (lean-post adds one in all): the warning that says so is silenced.
  const signal = new AbortController().signal;
  setMaxListeners(0, signal);
  const ways: Way[] = [
    {
      name: 'lean-post (node:http)',
      call: async (url) => (await lean(url, { method: 'POST', body: BODY, headers: HEADERS, redirect: 'manual', signal })).json(),
    },
    {
      name: 'undici request()',
      call: async (url) => {
        const res = await request(url, { method: 'POST', body: BODY, headers: HEADERS, dispatcher: agent, signal });
        return JSON.parse(await res.body.text());
      },
    },
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
