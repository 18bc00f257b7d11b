import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fromRuntime, helper, setFlows, startRuntime, stopRuntime } from '../test/helpers/runtime';
import { sequential, type CallFn } from './measure';
const BUILT = process.env.BUILT ?? join(__dirname, '..', 'dist', 'nodes');
const STDIO_SERVER = process.env.SRV ?? join(__dirname, 'peers-stdio-server.mjs');
const N = Number(process.env.N ?? 10000);
async function main() {
  const which = process.env.WHICH ?? 'node';
  let call: CallFn;
  let client: Client | undefined;
  if (which === 'bare' || which === 'same') {
    const same = which === 'same';
    client = new Client({ name: 'bench-bare', version: '1' }, {
      versionNegotiation: { mode: 'auto' },
      ...(same ? { capabilities: { elicitation: { form: {}, url: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } } } : {}),
    } as any);
    if (same) client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' as const }));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [STDIO_SERVER] }));
    const opts = same ? { onprogress: () => {}, resetTimeoutOnProgress: true } : undefined;
    call = async (i) => {
      const r = await client!.callTool({ name: 'tool-01', arguments: { text: `m${i}` } }, opts);
      if (r.isError) throw new Error('x');
    };
  } else {
    await startRuntime();
    const tab = { id: 'bench-tab', type: 'tab', label: 'bench' };
    const flow = [
      tab,
      { id: 'srv', type: 'mcp-server', transport: 'stdio', command: process.execPath, args: [STDIO_SERVER] },
      { id: 'call', z: tab.id, type: 'mcp-call-tool', server: 'srv', tool: 'tool-01', wires: [['out'], []] },
      { id: 'out', z: tab.id, type: 'helper' },
    ];
    await helper.load(['mcp-server', 'mcp-call-tool'].map((t) => require(join(BUILT, t, 'index.js'))) as any, flow as any);
    (helper as any)._sandbox.restore();
    await setFlows(flow);
    const waiting = new Map<string, () => void>();
    helper.getNode('out').on('input', (msg: any) => waiting.get(msg.corr)?.());
    const node = helper.getNode('call');
    call = (i) =>
      new Promise<void>((resolve) => {
        const corr = `c${i}`;
        waiting.set(corr, () => {
          waiting.delete(corr);
          resolve();
        });
        node.receive({ payload: { text: `m${i}` }, corr });
      });
  }
  await sequential(call, 500);
  if (process.env.PAUSE) {
    console.log('pid', process.pid);
    await new Promise((r) => setTimeout(r, 3000));
  }
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await sequential(call, N);
  const el = performance.now() - t0;
  const c = process.cpuUsage(c0);
  console.log(`${which}: ${((el / N) * 1000).toFixed(1)} us/call wall, user ${(c.user / N).toFixed(1)} us, system ${(c.system / N).toFixed(1)} us`);
  await client?.close();
  if (which === 'node') await stopRuntime();
}
main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
