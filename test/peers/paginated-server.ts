// An MCP server whose tools/list is spread over several pages, the cursor being the name of the
// first tool of the next page (as ESP32 firmware does). No npm server paginates tools/list, so this
// one is ours: SDK v2 low-level `Server` with raw JSON Schema tools, over the SDK's web-standard
// Streamable HTTP transport, which node:http feeds through a small Request/Response bridge (SDK 2.4
// ships no node:http adapter). Stateless: a fresh Server and transport per HTTP request.
//
// `repeatCursor: true` gives a broken server whose every page answers with the same nextCursor, so a
// client that trusts cursors blindly loops forever; ours must stop with an error.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, WebStandardStreamableHTTPServerTransport, type Tool } from '@modelcontextprotocol/server';
import { sendWebResponse, toWebRequest } from '../../src/server/http/web-bridge';

export interface PaginatedServerOptions {
  /** Number of tools (default 7). */
  toolCount?: number;
  /** Tools per page (default 3, so 7 tools make 3 pages). */
  pageSize?: number;
  /** Answer every tools/list with the same nextCursor, forever. */
  repeatCursor?: boolean;
  /** Answer each request as an event stream (SSE) instead of one JSON body. */
  sseReplies?: boolean;
}

export interface PaginatedServer {
  /** http://127.0.0.1:PORT/mcp */
  url: string;
  /** Every tool, in list order. */
  tools: Tool[];
  /** The cursor of every tools/list request received (undefined for the first page). */
  listRequests: Array<string | undefined>;
  close(): Promise<void>;
}

export function paginatedTools(count: number): Tool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `tool-${String(i + 1).padStart(2, '0')}`,
    description: `Paginated test tool number ${i + 1}; echoes its text argument.`,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'Text to echo' } },
      required: ['text'],
    },
  }));
}

export async function startPaginatedServer(opts: PaginatedServerOptions = {}): Promise<PaginatedServer> {
  const tools = paginatedTools(opts.toolCount ?? 7);
  const pageSize = opts.pageSize ?? 3;
  const listRequests: Array<string | undefined> = [];

  const buildServer = (): Server => {
    const server = new Server({ name: 'paginated-peer', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', (request) => {
      const cursor = request.params?.cursor;
      listRequests.push(cursor);
      if (opts.repeatCursor) return { tools: tools.slice(0, pageSize), nextCursor: tools[pageSize]?.name ?? tools[0].name };
      const start = cursor === undefined ? 0 : tools.findIndex((t) => t.name === cursor);
      if (start < 0) throw new Error(`Invalid cursor: ${cursor}`);
      const next = tools[start + pageSize];
      return { tools: tools.slice(start, start + pageSize), ...(next ? { nextCursor: next.name } : {}) };
    });
    server.setRequestHandler('tools/call', (request) => {
      const { name, arguments: args } = request.params;
      if (!tools.some((t) => t.name === name)) {
        return { content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true };
      }
      return { content: [{ type: 'text', text: `${name}: ${String(args?.text ?? '')}` }] };
    });
    return server;
  };

  const http = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    void serveStateless(buildServer(), req, res, !opts.sseReplies);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    tools,
    listRequests,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function serveStateless(server: Server, req: IncomingMessage, res: ServerResponse, json: boolean): Promise<void> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(await toWebRequest(req, { origin: `http://${req.headers.host ?? '127.0.0.1'}` }));
    await sendWebResponse(response, res);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(err instanceof Error ? err.message : String(err));
  } finally {
    await server.close().catch(() => undefined);
  }
}
