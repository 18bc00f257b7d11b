// Shared setup for the gemini-agent specs: the real Node-RED runtime (node-red-node-test-helper)
// with our node modules loaded from their .ts sources, core catch/function nodes, a fake Gemini
// per test and real MCP peers. `run()` resolves with whatever reaches the answer output or a Catch.
import { fromRuntime, helper, setEnv } from '../helpers/runtime';
import { startFakeGemini as startFake, type FakeGemini } from '../peers/fake-gemini';
import { startHomeAssistant, type HaGeneration, type HomeAssistantStandIn } from '../peers/home-assistant';

export { helper };

export const API_KEY = 'AIzaSy-test-key-DO-NOT-LEAK-7c1f9e';

const geminiAgentNode = require('../../nodes/gemini-agent');
const mcpServerNode = require('../../nodes/mcp-server');
const catchNode = require(fromRuntime('@node-red/nodes/core/common/25-catch.js'));
const functionNode = require(fromRuntime('@node-red/nodes/core/function/10-function.js'));

export const ALL_NODES = [mcpServerNode, geminiAgentNode, catchNode, functionNode];

const GEMINI_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GEMINI_BASE_URL', 'GOOGLE_GENAI_API_VERSION', 'GOOGLE_GENAI_USE_VERTEXAI'];

/** Tests must not pick up a developer's real key or endpoint; the returned function puts them back. */
export function clearGeminiEnv(): () => void {
  return setEnv(Object.fromEntries(GEMINI_ENV.map((k) => [k, undefined])));
}

export interface ServerDef {
  id: string;
  name: string;
  transport: 'http' | 'stdio';
  url?: string;
  command?: string;
  args?: string[];
  token?: string;
  prefix?: string;
  include?: string;
  exclude?: string;
  protocolVersion?: string;
}

export interface AgentFlowOptions {
  fake: FakeGemini;
  agent?: Record<string, unknown>;
  servers?: ServerDef[];
  /** Extra nodes (e.g. a function node wired from output 2 back to the agent). */
  extra?: Array<Record<string, unknown>>;
  /** Where output 2 goes; default a helper node "side". */
  output2?: string[];
}

export function agentFlow(options: AgentFlowOptions): { flow: any[]; credentials: Record<string, Record<string, string>> } {
  const servers = options.servers ?? [];
  const flow: any[] = [
    { id: 'tab', type: 'tab', label: 'gemini' },
    ...servers.map((s) => ({
      id: s.id,
      type: 'mcp-server',
      name: s.name,
      transport: s.transport,
      url: s.url,
      command: s.command,
      args: s.args,
      ...(s.protocolVersion ? { protocolVersion: s.protocolVersion } : {}),
    })),
    {
      id: 'agent',
      type: 'gemini-agent',
      z: 'tab',
      model: 'gemini-3.5-flash',
      baseUrl: options.fake.url,
      apiVersion: 'v1beta',
      servers: servers.map((s) => ({ server: s.id, prefix: s.prefix ?? '', include: s.include ?? '', exclude: s.exclude ?? '' })),
      ...options.agent,
      wires: [['out'], options.output2 ?? ['side']],
    },
    { id: 'out', type: 'helper', z: 'tab' },
    { id: 'side', type: 'helper', z: 'tab' },
    { id: 'catcher', type: 'catch', z: 'tab', scope: null, uncaught: false, wires: [['caught']] },
    { id: 'caught', type: 'helper', z: 'tab' },
    ...(options.extra ?? []).map((n) => ({ z: 'tab', ...n })),
  ];
  // Node-RED treats a node without x/y as a config node.
  for (const n of flow) if (n.z === 'tab') Object.assign(n, { x: n.x ?? 100, y: n.y ?? 100 });
  const credentials: Record<string, Record<string, string>> = { agent: { apiKey: API_KEY } };
  for (const s of servers) if (s.token) credentials[s.id] = { token: s.token };
  return { flow, credentials };
}

export interface Outcome {
  /** The message on output 1, or undefined when the run failed. */
  answer?: any;
  /** The message a Catch node got, or undefined when the run succeeded. */
  caught?: any;
}

/** Sends `msg` into the agent and waits for the answer or the Catch node, whichever comes first. */
export function run(msg: Record<string, unknown>, timeoutMs = 20000): Promise<Outcome> {
  const agent = helper.getNode('agent');
  const out = helper.getNode('out');
  const caught = helper.getNode('caught');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('neither an answer nor a caught error within ' + timeoutMs + ' ms')), timeoutMs);
    const finish = (o: Outcome) => {
      clearTimeout(timer);
      out.removeAllListeners('input');
      caught.removeAllListeners('input');
      resolve(o);
    };
    out.on('input', (m: any) => finish({ answer: m }));
    caught.on('input', (m: any) => finish({ caught: m }));
    agent.receive(msg);
  });
}

/** Collects every message that leaves on output 2 (chunks, flow-mode calls). */
export function collectSide(): any[] {
  const seen: any[] = [];
  helper.getNode('side').on('input', (m: any) => seen.push(m));
  return seen;
}

export async function loadAgent(options: AgentFlowOptions): Promise<void> {
  const { flow, credentials } = agentFlow(options);
  await helper.load(ALL_NODES, flow, credentials);
}

/** A fake Gemini that accepts the key the flows are given. */
export function startFakeGemini(options: Parameters<typeof startFake>[0] = {}): Promise<FakeGemini> {
  return startFake({ apiKey: API_KEY, ...options });
}
export type { FakeGemini };

/** The mcp-server entry for the Home Assistant stand-in, with its token. */
export function haServer(ha: HomeAssistantStandIn): ServerDef {
  return { id: 'ha', name: 'Home Assistant', transport: 'http', url: ha.url, token: ha.token };
}

export interface AgentPeers {
  fake: FakeGemini;
  /** Absent when the spec asked for no Home Assistant stand-in. */
  ha: HomeAssistantStandIn;
}

/**
 * The mocha hooks every agent spec needs: the runtime for the whole spec, a fresh fake Gemini and
 * (unless `homeAssistant: false`) a fresh Home Assistant stand-in per test, all stopped afterwards,
 * and no Gemini settings leaking in from the environment. Call it at the top of a describe.
 */
export function useAgentPeers(options: { homeAssistant?: boolean; generation?: HaGeneration } = {}): AgentPeers {
  const peers = {} as AgentPeers;
  let restoreEnv = () => {};
  before((done) => {
    restoreEnv = clearGeminiEnv();
    helper.startServer(done);
  });
  after(async () => {
    await helper.stopServer();
    restoreEnv();
  });
  beforeEach(async () => {
    peers.fake = await startFakeGemini();
    if (options.homeAssistant !== false) peers.ha = await startHomeAssistant({ generation: options.generation });
  });
  afterEach(async () => {
    await helper.unload();
    await peers.fake.close();
    await peers.ha?.close();
  });
  return peers;
}

/** Everything the runtime logged, as one string (to prove the key never appears). */
export function allLogs(): string {
  return JSON.stringify((helper.log() as any).args ?? []);
}

/** The text of a caught error without the "McpNodeError: " Node-RED puts in front (it uses err.toString()). */
export function errorText(caught: any): string {
  return String(caught?.error?.message ?? '').replace(/^[A-Za-z]*Error: /, '');
}
