// A 2026-07-28 server whose tool declares an `x-mcp-header` parameter (SEP-2243): the server SDK's
// McpServer behind createMcpHandler, which rejects a tools/call whose body carries that argument
// without the matching `Mcp-Param-*` header (-32020, HTTP 400). It records every POST it answers, so
// a test sees which headers a client sent and which requests were turned away.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { sendWebResponse, toWebRequest } from '../../src/server/http/web-bridge';

export interface SeenPost {
  method: string;
  /** The Mcp-Param-Region header as sent, or null. */
  regionHeader: string | null;
  status: number;
}

export interface ParamHeaderServer {
  url: string;
  posts: SeenPost[];
  /** true: `region` is declared as the Region header; false: the same tool without the declaration. */
  declareHeader: boolean;
  close(): Promise<void>;
}

export async function startParamHeaderServer(declareHeader = true): Promise<ParamHeaderServer> {
  const state: ParamHeaderServer = { url: '', posts: [], declareHeader, close: async () => undefined };
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'param-headers', version: '1.0.0' }, { capabilities: { tools: {} } });
    const region = state.declareHeader ? { type: 'string', 'x-mcp-header': 'Region' } : { type: 'string' };
    server.registerTool(
      'lights',
      {
        description: 'Switches the lights of a region.',
        inputSchema: fromJsonSchema({ type: 'object', properties: { region: region, on: { type: 'boolean' } }, required: ['region'] }),
      },
      async (args) => ({ content: [{ type: 'text', text: `lights in ${String((args as { region?: unknown }).region)}` }] }),
    );
    return server;
  });
  const http = createServer((req, res) => {
    void (async () => {
      const request = await toWebRequest(req, { origin: `http://${req.headers.host ?? 'localhost'}` });
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const method = /"method"\s*:\s*"([^"]+)"/.exec(body)?.[1] ?? request.method;
      const response = await handler.fetch(request);
      if (request.method === 'POST') state.posts.push({ method, regionHeader: request.headers.get('mcp-param-region'), status: response.status });
      await sendWebResponse(response, res);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  state.close = async () => {
    http.closeAllConnections();
    await Promise.all([new Promise((resolve) => http.close(resolve)), handler.close()]);
  };
  return state;
}
