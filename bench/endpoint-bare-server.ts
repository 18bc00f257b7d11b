// The bare SDK server of bench/endpoint.ts, in a process of its own (as Node-RED is): the same echo
// tool on @modelcontextprotocol/server's createMcpHandler over node:http, its URL sent to the parent.
// The handler speaks web Request/Response; it is put on node:http with @hono/node-server, as the
// SDK's own examples do, so the baseline shares none of this repository's code. It asks for the same
// bearer token as the endpoint (BENCH_TOKEN from the parent): both servers check one, and the bench's
// client sends the same request to both.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { getRequestListener } from '@hono/node-server';

const schema = { type: 'object' as const, properties: { text: { type: 'string' } }, required: ['text'] };

const handler = createMcpHandler(() => {
  const server = new Server({ name: 'bare', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: schema }] }));
  server.setRequestHandler('tools/call', (req) => {
    const args = req.params.arguments ?? {};
    return { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args };
  });
  return server;
});
const expected = `Bearer ${process.env.BENCH_TOKEN}`;
const http = createServer(
  getRequestListener((request) => (request.headers.get('authorization') === expected ? handler.fetch(request) : new Response(null, { status: 401 }))),
);
http.listen(0, '127.0.0.1', () => process.send!({ url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` }));
const stop = () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
};
process.on('disconnect', stop);
process.on('SIGTERM', stop);
