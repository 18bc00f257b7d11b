// bench/agent-overhead: what does gemini-agent cost per model step over a hand-written loop?
// In one process and one run, against the fake Gemini (zero delay) and the Home Assistant stand-in:
//   (a) a hand-written loop with the bare @google/genai client and the bare MCP client, and
//   (b) the gemini-agent node in the real Node-RED runtime (auto mode),
// each request being STEPS model turns with one tool call each, then a final text turn. Requests
// alternate one by one so machine noise hits both alike. Prints median per-step time and the ratio (goal <= 1.1).
import { GoogleGenAI, type Content } from '@google/genai';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { reply } from '../test/peers/fake-gemini';
import { startHomeAssistant } from '../test/peers/home-assistant';
import { API_KEY, clearGeminiEnv, helper, loadAgent, run, startFakeGemini } from '../test/gemini/harness';
import { runAgent } from '../src/gemini/agent-loop';
import { mcpExecutor } from '../src/gemini/auto-executor';
import { buildCatalog } from '../src/gemini/tool-catalog';

const STEPS = Number(process.env.BENCH_STEPS ?? 4);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const MODEL = 'gemini-3.5-flash';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  clearGeminiEnv();
  const fake = await startFakeGemini();
  const ha = await startHomeAssistant();
  const scriptRequest = () => {
    for (let i = 0; i < STEPS; i++) fake.script(reply.call('HassTurnOn', { name: `Light ${i}` }));
    fake.script(reply.text('done'));
  };

  // (a) the hand-written loop: same wire contract (verbatim model turn, one user content of responses).
  const ai = new GoogleGenAI({ apiKey: API_KEY, apiVersion: 'v1beta', httpOptions: { baseUrl: fake.url, apiVersion: 'v1beta' } });
  const mcp = new Client({ name: 'bench-bare', version: '1' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(ha.url), { requestInit: { headers: { Authorization: `Bearer ${ha.token}` } } }));
  const { tools } = await mcp.listTools();
  const declarations = tools.map((t) => ({ name: t.name, description: t.description ?? '', parametersJsonSchema: t.inputSchema }));
  const bare = async () => {
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'turn on the lights' }] }];
    for (;;) {
      const r = await ai.models.generateContent({
        model: MODEL,
        contents,
        config: { tools: [{ functionDeclarations: declarations }], toolConfig: { functionCallingConfig: { mode: 'AUTO' as any } } },
      });
      const content = r.candidates![0].content!;
      contents.push(content);
      const calls = (content.parts ?? []).filter((p) => p.functionCall).map((p) => p.functionCall!);
      if (calls.length === 0) return;
      const results = await Promise.all(calls.map((c) => mcp.callTool({ name: c.name!, arguments: c.args ?? {} })));
      contents.push({
        role: 'user',
        parts: calls.map((c, i) => ({ functionResponse: { id: c.id, name: c.name, response: { output: (results[i].content as any)[0].text } } })),
      });
    }
  };

  // (b) the node.
  await new Promise<void>((resolve) => helper.startServer(resolve));
  await loadAgent({ fake, agent: { model: MODEL, maxSteps: STEPS + 2 }, servers: [{ id: 'ha', name: 'HA', transport: 'http', url: ha.url, token: ha.token }] });
  const viaNode = async () => {
    const { caught } = await run({ payload: 'turn on the lights' });
    if (caught) throw new Error(caught.error.message);
  };

  // (c) the engine alone (src/gemini, no Node-RED) over the same shared MCP session the node uses:
  // splits the overhead between the loop and the runtime.
  const provider = (helper.getNode('ha') as any).provider;
  const engine = async () => {
    await runAgent({
      client: ai,
      model: MODEL,
      contents: [{ role: 'user', parts: [{ text: 'turn on the lights' }] }],
      catalog: await buildCatalog([{ provider }]),
      executor: mcpExecutor(),
      maxSteps: STEPS + 2,
      functionCalling: 'AUTO',
      timeoutMs: 120000,
      secrets: [API_KEY],
    });
  };

  const once = async (fn: () => Promise<void>) => {
    scriptRequest();
    const t = performance.now();
    await fn();
    return (performance.now() - t) / (STEPS + 1);
  };

  for (let i = 0; i < 10; i++) {
    await once(bare); // warm-up every path
    await once(engine);
    await once(viaNode);
  }
  // Interleaved request by request (order swapped each time) so load from other processes hits both alike.
  const bareTimes: number[] = [];
  const engineTimes: number[] = [];
  const nodeTimes: number[] = [];
  const order: Array<[() => Promise<void>, number[]]> = [
    [bare, bareTimes],
    [engine, engineTimes],
    [viaNode, nodeTimes],
  ];
  for (let i = 0; i < REQUESTS * ROUNDS; i++) {
    const rotated = [...order.slice(i % 3), ...order.slice(0, i % 3)];
    for (const [fn, times] of rotated) times.push(await once(fn));
  }
  const b = median(bareTimes);
  const n = median(nodeTimes);
  console.log(`agent-overhead: ${STEPS} tool steps + 1 final turn per request, ${REQUESTS} requests x ${ROUNDS} rounds, model ${MODEL}`);
  console.log(`  bare @google/genai + MCP client loop: ${b.toFixed(2)} ms per step (median)`);
  console.log(`  engine alone (runAgent, McpSession):  ${median(engineTimes).toFixed(2)} ms per step (median)`);
  console.log(`  gemini-agent node (auto mode):        ${n.toFixed(2)} ms per step (median)`);
  console.log(`  ratio node/bare: ${(n / b).toFixed(2)} (goal <= 1.1)`);

  await helper.unload();
  await new Promise<void>((resolve) => helper.stopServer(resolve));
  await mcp.close();
  await fake.close();
  await ha.close();
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
