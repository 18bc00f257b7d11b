// Node-RED's own flows as read tools: an assistant can see the tabs and subflows, read one flow,
// find nodes, learn the installed node types, and read what went wrong (errors and red statuses)
// and what a debug node showed. Nothing here changes a flow.
//
// The engine knows nothing of Node-RED: the adapter hands it a NodeRedView (the deployed node
// configurations, each node's last status, the recent debug-sidebar entries). Credentials are kept
// apart from node configurations by Node-RED itself; a `credentials` key a configuration may still
// carry is dropped here.
import type { Tool } from '@modelcontextprotocol/server';
import type { DeployedNode, NodeRedRuntime, NodeRedView } from './types';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
type Property = { type: string; description?: string; minLength?: number; minimum?: number; maximum?: number };
const object = (properties: Record<string, Property>, required: string[] = []) => ({ type: 'object' as const, properties, required });

export const NODE_RED_READ_TOOLS: Tool[] = [
  {
    name: 'flows_list',
    title: 'List the flows',
    description: 'The tabs and subflows of this Node-RED, each with its id, label, whether it is disabled, its description and how many nodes it holds.',
    inputSchema: object({}),
    annotations: READ_ONLY,
  },
  {
    name: 'flow_read',
    title: 'Read one flow',
    description: "One tab or subflow by id or label: its nodes in Node-RED's flow JSON (settings and wires; credentials are never included).",
    inputSchema: object({ flow: { type: 'string', description: 'the id or the label of a tab or subflow (flows_list)' } }, ['flow']),
    annotations: READ_ONLY,
  },
  {
    name: 'nodes_search',
    title: 'Find nodes',
    description: 'Nodes whose type, name, topic, id or label contains the query (case does not matter), with the flow each sits on.',
    inputSchema: object({ query: { type: 'string', minLength: 1, description: 'e.g. "mqtt", "porch", "debug"' } }, ['query']),
    annotations: READ_ONLY,
  },
  {
    name: 'node_types',
    title: 'Installed node types',
    description:
      'Without a type: every installed node type with its module. With a type: its help text as the editor shows it, and the settings the deployed nodes of that type use.',
    inputSchema: object({ type: { type: 'string', description: 'e.g. "inject", "mqtt in", "mcp-call-tool" (optional)' } }),
    annotations: READ_ONLY,
  },
  {
    name: 'node_errors',
    title: 'What is wrong',
    description: 'The recent errors and warnings nodes reported, and every node whose status is red now; optionally of one flow.',
    inputSchema: object({ flow: { type: 'string', description: 'the id or the label of a tab (optional)' } }),
    annotations: READ_ONLY,
  },
  {
    name: 'debug_read',
    title: 'Read a debug node',
    description: 'The most recent messages a debug node showed in the sidebar, newest last.',
    inputSchema: object(
      {
        node: { type: 'string', description: 'the id or the name of a debug node' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'how many (default 10)' },
      },
      ['node'],
    ),
    annotations: READ_ONLY,
  },
];

const INFO_CHARS = 300;
export const READ_TOOL_NAMES = new Set(NODE_RED_READ_TOOLS.map((t) => t.name));

/** Runs one read tool; throws with what to do when the arguments do not fit. */
export async function readTool(
  name: string,
  args: Record<string, unknown>,
  view: NodeRedView,
  runtime: NodeRedRuntime | undefined,
): Promise<Record<string, unknown>> {
  if (name === 'node_types') return nodeTypes(args, view, runtime);
  return readView(name, args, view);
}

async function nodeTypes(args: Record<string, unknown>, view: NodeRedView, runtime: NodeRedRuntime | undefined): Promise<Record<string, unknown>> {
  if (!runtime)
    throw new Error("This Node-RED's node registry is out of reach of the package (an embedded runtime it cannot find), so node types cannot be listed");
  const types = await runtime.types();
  if (args.type === undefined || args.type === '') return { types: types.map((t) => ({ type: t.type, module: t.module, enabled: t.enabled })) };
  const wanted = text(args.type, 'type');
  const found = types.find((t) => t.type === wanted);
  if (!found) throw new Error(`No node type "${wanted}" is installed; node_types without a type lists them`);
  const settings = new Set<string>();
  for (const n of view.nodes())
    if (n.type === wanted) for (const key of Object.keys(n)) if (!['id', 'type', 'z', 'credentials'].includes(key)) settings.add(key);
  return { ...found, help: await runtime.help(wanted), settingsInUse: [...settings] };
}

function readView(name: string, args: Record<string, unknown>, view: NodeRedView): Record<string, unknown> {
  const nodes = view.nodes().map(withoutCredentials);
  switch (name) {
    case 'flows_list':
      return { flows: nodes.filter(isFlow).map((f) => flowSummary(f, nodes)) };
    case 'flow_read': {
      const flow = findFlow(nodes, text(args.flow, 'flow'));
      return { flow: flowSummary(flow, nodes), nodes: nodes.filter((n) => n.z === flow.id) };
    }
    case 'nodes_search': {
      const query = text(args.query, 'query').toLowerCase();
      const hits = nodes.filter(
        (n) => !isFlow(n) && ['type', 'name', 'topic', 'id', 'label'].some((k) => typeof n[k] === 'string' && (n[k] as string).toLowerCase().includes(query)),
      );
      return {
        nodes: hits.slice(0, 100).map((n) => ({ id: n.id, type: n.type, name: n.name || undefined, topic: n.topic || undefined, flow: n.z })),
        more: Math.max(0, hits.length - 100),
      };
    }
    case 'node_errors': {
      const flow = args.flow === undefined || args.flow === '' ? undefined : findFlow(nodes, text(args.flow, 'flow'));
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const reported = view
        .sidebar()
        .filter((e) => e.level === 20 || e.level === 30)
        .filter((e) => !flow || e.z === flow.id)
        .map((e) => ({
          node: e.id,
          type: byId.get(e.id)?.type,
          name: e.name || undefined,
          flow: e.z,
          level: e.level === 20 ? 'error' : 'warning',
          message: e.msg,
          time: new Date(e.time).toISOString(),
        }));
      const red = nodes
        .filter((n) => !isFlow(n) && (!flow || n.z === flow.id))
        .map((n) => ({ n, status: view.status(n.id) }))
        .filter(({ status }) => status?.fill === 'red')
        .map(({ n, status }) => ({ node: n.id, type: n.type, name: n.name || undefined, flow: n.z, status: status!.text ?? '' }));
      return { errors: reported, redStatus: red };
    }
    case 'debug_read': {
      const wanted = text(args.node, 'node');
      const debug = nodes.find((n) => n.type === 'debug' && (n.id === wanted || n.name === wanted));
      if (!debug) throw new Error(`No debug node has the id or name "${wanted}"; nodes_search with "debug" lists them`);
      const limit = Math.min(100, Math.max(1, Number.isInteger(args.limit) ? (args.limit as number) : 10));
      const shown = view.sidebar().filter((e) => e.id === debug.id && e.level === undefined);
      return {
        node: debug.id,
        messages: shown
          .slice(-limit)
          .map((e) => ({ time: new Date(e.time).toISOString(), topic: e.topic, property: e.property, format: e.format, value: e.msg })),
      };
    }
    default:
      throw new Error(`Unknown tool: ${name}`);
  }
}

/** A sidebar entry's message as a person reads it: an error Node-RED encoded for the sidebar becomes "Name: message" (its stack stays out). */
export function readable(msg: unknown): unknown {
  if (typeof msg !== 'string' || !msg.startsWith('{"__enc__":true,"type":"error"')) return msg;
  try {
    const { data } = JSON.parse(msg) as { data?: { name?: string; message?: string } };
    return data?.message !== undefined ? `${data.name ?? 'Error'}: ${data.message}` : msg;
  } catch {
    return msg;
  }
}

const isFlow = (n: DeployedNode) => n.type === 'tab' || n.type === 'subflow';

function withoutCredentials(n: DeployedNode): DeployedNode {
  if (!('credentials' in n)) return n;
  const { credentials: _dropped, ...rest } = n;
  return rest as DeployedNode;
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new Error(`${name} must be a non-empty string`);
  return value.trim();
}

function findFlow(nodes: DeployedNode[], wanted: string): DeployedNode {
  const flows = nodes.filter(isFlow);
  const found = flows.find((f) => f.id === wanted) ?? flows.find((f) => f.label === wanted || f.name === wanted);
  if (!found) throw new Error(`No tab or subflow has the id or label "${wanted}"; flows_list lists them`);
  return found;
}

function flowSummary(f: DeployedNode, nodes: DeployedNode[]): Record<string, unknown> {
  const info = typeof f.info === 'string' && f.info ? f.info : undefined;
  return {
    id: f.id,
    type: f.type,
    label: (f.label as string | undefined) ?? (f.name as string | undefined) ?? '',
    disabled: f.disabled === true,
    info: info && info.length > INFO_CHARS ? `${info.slice(0, INFO_CHARS)}…` : info,
    nodes: nodes.filter((n) => n.z === f.id).length,
  };
}
