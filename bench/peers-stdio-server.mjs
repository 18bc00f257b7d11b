// The MCP server of bench/peers.ts over stdio: the same tools as its HTTP server (tool-01 … echo
// their `text`), SDK v2's Server on its stdio transport. Plain JavaScript, so each client starts it
// with `node` alone (no TypeScript loader in the child).
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const tools = ['tool-01', 'tool-02', 'tool-03'].map((name) => ({
  name,
  description: `Bench tool ${name}; echoes its text argument.`,
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo' } }, required: ['text'] },
}));

function createServer() {
  const server = new Server({ name: 'bench-stdio', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({ tools }));
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    if (!tools.some((t) => t.name === name)) return { content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true };
    return { content: [{ type: 'text', text: `${name}: ${String(args?.text ?? '')}` }] };
  });
  return server;
}

const handle = serveStdio(() => createServer(), { onerror: (err) => process.stderr.write(`bench stdio server: ${err.message}\n`) });
process.stdin.on('end', () => void handle.close().finally(() => process.exit(0)));
