// The real Node-RED runtime (node-red-node-test-helper) with our endpoint nodes, and RED.httpNode
// served on 127.0.0.1: the helper builds httpNode as a bare express app it never listens with.
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { catchNode, functionNode, helper } from '../helpers/runtime';

export const endpointNodes = [
  require('../../nodes/mcp-endpoint/index.ts'),
  require('../../nodes/mcp-tool-in/index.ts'),
  require('../../nodes/mcp-tool-out/index.ts'),
];

let httpNode: ((req: unknown, res: unknown) => void) | undefined;
/** A node module whose only job is to hand the test the runtime's httpNode app. */
const captureHttpNode = (red: { httpNode: typeof httpNode }) => {
  httpNode = red.httpNode;
};

let server: HttpServer | undefined;
export let baseUrl = '';

export async function startEndpointRuntime(): Promise<void> {
  await new Promise<void>((resolve) => helper.startServer(() => resolve()));
  server = createServer((req, res) => (httpNode ? httpNode(req, res) : res.writeHead(503).end()));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function stopEndpointRuntime(): Promise<void> {
  await helper.unload();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise<void>((resolve) => helper.stopServer(() => resolve()));
}

export type FlowNode = Record<string, unknown> & { id: string; type: string };

export async function loadFlow(flow: FlowNode[], credentials: Record<string, unknown> = {}, extra: unknown[] = []): Promise<void> {
  const tab = { id: 'tab1', type: 'tab', label: 'tools' };
  const nodes = flow.map((n) => (n.z || n.type === 'mcp-endpoint' || n.type === 'mcp-server' || n.type === 'tab' ? n : { ...n, z: tab.id }));
  await helper.unload();
  await helper.load([captureHttpNode, ...endpointNodes, catchNode, functionNode, ...extra] as any, [tab, ...nodes] as any, credentials as any);
}

export type Era = '2025-11-25' | '2026-07-28';

export function clientOptions(era: Era): Record<string, unknown> {
  return era === '2026-07-28'
    ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
    : { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: ['2025-11-25'] };
}

export async function connect(
  path: string,
  era: Era,
  token?: string,
  extra: Record<string, unknown> = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  // A path on the in-process runtime, or a whole URL (a Node-RED of its own).
  const transport = new StreamableHTTPClientTransport(/^https?:/.test(path) ? new URL(path) : new URL(path, baseUrl), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'endpoint-test', version: '1.2.3' }, { capabilities: {}, ...clientOptions(era), ...extra });
  await client.connect(transport);
  return { client, transport };
}

export async function disconnect(c: { client: Client; transport: StreamableHTTPClientTransport }): Promise<void> {
  await c.transport.terminateSession().catch(() => undefined);
  await c.client.close();
}

export function textOf(result: { content?: unknown }): string {
  return ((result.content as Array<{ type: string; text?: string }>) ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
}

/** The calls a flow holds in its `helper` node `held`, answered (or not) by the test through mcp-tool-out `out`. */
export function heldCalls(): any[] {
  const held: any[] = [];
  helper.getNode('held').on('input', (msg: any) => held.push(msg));
  return held;
}

/** How many calls the endpoint `ep` still waits on. */
export const pendingCount = () => helper.getNode('ep').endpoint.pending.size as number;
