// A stdio MCP server whose tool and property names break Gemini's naming rules (a dotted tool name,
// a dashed property), built with the official server SDK's low-level Server so the JSON Schema is
// sent exactly as written. Each result echoes the arguments it received, key for key.
import { Server, type Tool } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const TOOLS: Tool[] = [
  {
    name: 'light.set',
    description: 'Sets a light.',
    inputSchema: {
      type: 'object',
      properties: { 'entity-id': { type: 'string' }, 'brightness-pct': { type: 'integer', minimum: 0, maximum: 100 } },
      required: ['entity-id'],
      additionalProperties: false,
    },
  },
];

const server = new Server({ name: 'odd-names', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
server.setRequestHandler('tools/call', (request) => ({
  content: [{ type: 'text', text: JSON.stringify({ tool: request.params.name, received: request.params.arguments ?? {} }) }],
}));
server.connect(new StdioServerTransport()).catch((err) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
