// An MCP server (the SDK's createMcpHandler, both protocol eras) that answers only requests whose
// bearer the authorization server under test accepts, as RFC 6750 and the MCP authorization spec
// say: 401 with `WWW-Authenticate: Bearer resource_metadata="…"` pointing at the RFC 9728 document.
// Every bearer it saw is recorded (a test proves a refreshed token reached the server).
import { createMcpHandler, Server, type Tool } from '@modelcontextprotocol/server';

export const OAUTH_TOOLS: Tool[] = ['lights_on', 'lights_off'].map((name) => ({
  name,
  description: `Switches the test lights (${name}).`,
  inputSchema: { type: 'object' as const, properties: { room: { type: 'string' } } },
}));

export interface ProtectedMcp {
  /** Answers a web Request for the MCP path. */
  fetch(request: Request): Promise<Response>;
  /** Every Authorization header value that came with an MCP request, in order. */
  bearers: string[];
  /** Requests answered 401. */
  rejected: number;
  close(): Promise<void>;
}

export function protectedMcp(o: { accepts(token: string): boolean | Promise<boolean>; resourceMetadataUrl: string }): ProtectedMcp {
  const handler = createMcpHandler(() => {
    const server = new Server({ name: 'oauth-protected', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: OAUTH_TOOLS }));
    server.setRequestHandler('tools/call', (request) => ({ content: [{ type: 'text', text: `done: ${request.params.name}` }] }));
    return server;
  });
  const state: ProtectedMcp = {
    bearers: [],
    rejected: 0,
    async fetch(request) {
      const header = request.headers.get('authorization') ?? '';
      const m = /^Bearer (\S+)$/.exec(header);
      if (header) state.bearers.push(header);
      if (!m || !(await o.accepts(m[1]))) {
        state.rejected++;
        const error = m ? ', error="invalid_token"' : '';
        return new Response('401: Unauthorized', {
          status: 401,
          headers: { 'WWW-Authenticate': `Bearer resource_metadata="${o.resourceMetadataUrl}"${error}` },
        });
      }
      return handler.fetch(request);
    },
    close: () => handler.close(),
  };
  return state;
}
