// bench/large-calls: does a burst of large tool calls stall everyone else? A real Node-RED (the
// settings `npm start` uses) serves an echo tool from a flow (mcp-endpoint, mcp-tool-in ->
// mcp-tool-out); twenty 4 MiB tools/call requests arrive at once while a probe asks the editor for
// /settings every 20 ms. Prints the editor's latency idle and under the burst, and the ratio.
// (Before large requests were worked on two at a time, the editor waited up to 2.4–3 s.)
import { startNodeRed } from '../test/helpers/node-red';

const TOKEN = 'large-calls-token';
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const MIB = Number(process.env.BENCH_MIB ?? 4);

async function main(): Promise<void> {
  const nr = await startNodeRed();
  try {
    await nr.deploy([
      { id: 'tab', type: 'tab', label: 'large calls' },
      { id: 'ep', type: 'mcp-endpoint', path: '/mcp', credentials: { tokens: TOKEN } },
      {
        id: 'in',
        type: 'mcp-tool-in',
        z: 'tab',
        endpoint: 'ep',
        name: 'echo',
        description: 'echo',
        inputSchema: '{"type":"object","properties":{"text":{"type":"string"}}}',
        wires: [['out']],
      },
      { id: 'out', type: 'mcp-tool-out', z: 'tab', wires: [] },
    ]);
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
    };
    const call = async (text: string) => {
      const res = await fetch(`${nr.url}/mcp`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text }, _meta: meta } }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`tools/call answered ${res.status}`);
    };
    for (let i = 0; i < 50 && (await fetch(`${nr.url}/mcp`, { method: 'POST', headers, body: '{}' })).status === 404; i++)
      await new Promise((r) => setTimeout(r, 100));
    await call('warm-up');
    const probe = async (whileRunning: () => boolean) => {
      const latencies: number[] = [];
      do {
        const t = performance.now();
        await (await fetch(`${nr.url}/settings`)).arrayBuffer();
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 20));
      } while (whileRunning());
      return latencies.sort((a, b) => a - b);
    };
    let idleRounds = 0;
    const idle = await probe(() => ++idleRounds < 50);
    let running = true;
    const loaded = probe(() => running);
    const big = 'x'.repeat(MIB * 1024 * 1024 - 4000);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CALLS }, () => call(big)));
    const took = performance.now() - t0;
    running = false;
    const under = await loaded;
    const max = (l: number[]) => l[l.length - 1];
    console.log(`${CALLS} calls of ${MIB} MiB answered in ${took.toFixed(0)} ms`);
    console.log(`editor /settings latency idle: p50 ${idle[idle.length >> 1].toFixed(1)} ms, max ${max(idle).toFixed(1)} ms`);
    console.log(`editor /settings latency under the burst: p50 ${under[under.length >> 1].toFixed(1)} ms, max ${max(under).toFixed(1)} ms`);
    console.log(`ratio (max under burst / max idle): ${(max(under) / max(idle)).toFixed(1)}x`);
  } finally {
    await nr.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
