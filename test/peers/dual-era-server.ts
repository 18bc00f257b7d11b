// An MCP server that speaks both protocol eras on one URL (2025 initialize and the stateless
// 2026-07-28 with server/discover): the server SDK's createMcpHandler behind the todo example's
// node:http endpoint, serving three fixed tools.
import { Server, type Tool } from '@modelcontextprotocol/server';
import { serveHttp, type HttpEndpoint } from '../../servers/todo/http-transport';

const object = { type: 'object' as const, properties: { text: { type: 'string' } } };
export const DUAL_ERA_TOOLS: Tool[] = ['alpha', 'beta', 'gamma'].map((name) => ({ name, description: `Echoes as ${name}.`, inputSchema: object }));

export function startDualEraServer(): Promise<HttpEndpoint> {
  return serveHttp(
    () => {
      const server = new Server({ name: 'dual-era', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: DUAL_ERA_TOOLS }));
      server.setRequestHandler('tools/call', (request) => ({
        content: [{ type: 'text', text: `${request.params.name}: ${String(request.params.arguments?.text ?? '')}` }],
      }));
      return server;
    },
    0,
    '127.0.0.1',
  );
}
