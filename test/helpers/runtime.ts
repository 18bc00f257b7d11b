// Shared harness for node tests: the real Node-RED runtime through node-red-node-test-helper,
// our node modules loaded from their TypeScript sources, and small waiting utilities.
import { startHomeAssistant, type HomeAssistantOptions, type HomeAssistantStandIn } from '../peers/home-assistant';
import helper from 'node-red-node-test-helper';

// NODE_RED_RUNTIME=<folder holding node_modules/node-red> runs the same specs on another Node-RED
// (CI: Node-RED 5 from .tools/nr5 under Node 24, what the Home Assistant add-on ships).
export const runtimeRoot = process.env.NODE_RED_RUNTIME;
export const fromRuntime = (id: string) => (runtimeRoot ? require.resolve(id, { paths: [runtimeRoot] }) : require.resolve(id));
helper.init(fromRuntime('node-red'));
if (runtimeRoot) console.log(`  Node-RED ${require(fromRuntime('node-red/package.json')).version} from ${runtimeRoot}, Node ${process.version}`);

export const mcpNodes = [
  require('../../nodes/mcp-server/index.ts'),
  require('../../nodes/mcp-list-tools/index.ts'),
  require('../../nodes/mcp-call-tool/index.ts'),
];
export const catchNode = require(fromRuntime('@node-red/nodes/core/common/25-catch.js'));
export const functionNode = require(fromRuntime('@node-red/nodes/core/function/10-function.js'));

export { helper };

export type FlowNode = Record<string, unknown> & { id: string; type: string };

export async function startRuntime(): Promise<void> {
  await new Promise<void>((resolve) => helper.startServer(() => resolve()));
}

export async function stopRuntime(): Promise<void> {
  await helper.unload();
  await new Promise<void>((resolve) => helper.stopServer(() => resolve()));
}

const CONFIG_TYPES = new Set(['mcp-server', 'esp32-listener']);

/** Loads a flow; nodes without `z` are put on one tab (Catch nodes need a flow to watch). */
export async function load(flow: FlowNode[], credentials: Record<string, unknown> = {}, extraNodes: unknown[] = []): Promise<void> {
  const tab = { id: 'test-tab', type: 'tab', label: 'test' };
  const nodes = flow.map((n) => (n.z || CONFIG_TYPES.has(n.type) || n.type === 'tab' ? n : { ...n, z: tab.id }));
  await helper.unload(); // a test may load several flows in turn
  await helper.load([...mcpNodes, catchNode, functionNode, ...extraNodes] as any, [tab, ...nodes] as any, credentials as any);
}

/**
 * Resolves with the next `count` messages a helper node receives (rejects after `ms`). A wait that
 * loses a race (the answer came, not the Catch) ends when the flow is unloaded, so its timer does
 * not keep the test process alive.
 */
export function nextMessages(nodeId: string, count = 1, ms = 30000): Promise<any[]> {
  const node = helper.getNode(nodeId);
  const got: any[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${nodeId}: got ${got.length}/${count} messages within ${ms} ms`)), ms);
    node.on('close', () => clearTimeout(timer));
    node.on('input', (msg: any) => {
      got.push(msg);
      if (got.length === count) {
        clearTimeout(timer);
        resolve(got);
      }
    });
  });
}

/**
 * A deploy into the running runtime ("full", "flows" or "nodes", as the editor's Deploy button),
 * resolved when the new flows have started. helper.setFlows gives them 300 ms, which a busy
 * machine overruns (a node whose close cancels a call takes longer): a failed spec that left the
 * runtime half-deployed for the next one. Listening before the deploy also cannot miss the event.
 */
export async function setFlows(flow: unknown[], type: 'full' | 'flows' | 'nodes' = 'full', credentials: Record<string, unknown> = {}): Promise<void> {
  const { _events: events, _redNodes: nodes } = helper as any;
  let stopWaiting = () => {};
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the deployed flows did not start within 30 s`)), 30_000);
    const onStarted = () => resolve();
    stopWaiting = () => {
      clearTimeout(timer);
      events.off('flows:started', onStarted);
    };
    events.on('flows:started', onStarted);
  });
  try {
    await nodes.setFlows(flow, credentials, type);
    await started;
  } finally {
    stopWaiting();
  }
}

export const nextMessage = (nodeId: string, ms?: number) => nextMessages(nodeId, 1, ms).then((m) => m[0]);

/** The next message a helper node receives with this topic; others pass by (progress beside input requests). */
export function nextMessageWithTopic(nodeId: string, topic: string, ms = 30000): Promise<any> {
  const node = helper.getNode(nodeId);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${nodeId}: no message with topic "${topic}" within ${ms} ms`)), ms);
    node.on('close', () => clearTimeout(timer));
    const on = (msg: any) => {
      if (msg.topic !== topic) return;
      clearTimeout(timer);
      node.off('input', on);
      resolve(msg);
    };
    node.on('input', on);
  });
}

/**
 * Every log event the runtime writes from now until the flow is unloaded (to prove secrets stay out
 * of logs). The helper's spy is removed by `helper.unload()`, so there is nothing to restore here.
 */
export function captureLogs(): { lines: () => string[] } {
  const spy = helper.log();
  return { lines: () => spy.args.map((a: any[]) => JSON.stringify(a[0])) };
}

export function send(nodeId: string, msg: Record<string, unknown>): void {
  helper.getNode(nodeId).receive(msg);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sets process variables for one test; the returned function puts back exactly what was there. */
export function setEnv(vars: Record<string, string | undefined>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  apply(vars);
  return () => apply(before);
}

export { until } from './wait';

/** The runtime and the Home Assistant stand-in for one suite, both stopped after it. */
export function useRuntimeWithHomeAssistant(options: HomeAssistantOptions = {}): { readonly ha: HomeAssistantStandIn } {
  const state = {} as { ha: HomeAssistantStandIn };
  before(async () => {
    await startRuntime();
    state.ha = await startHomeAssistant(options);
  });
  after(async () => {
    await stopRuntime();
    await state.ha?.close();
  });
  return state;
}
