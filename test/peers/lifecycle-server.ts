// A stdio MCP server (official server SDK, low-level Server) for session lifecycle tests:
//   add-tool  registers one more tool and sends notifications/tools/list_changed
//   wait      runs until the client cancels it, then appends "cancelled <id>" to $LIFECYCLE_LOG
//   exit      answers, then the process exits (the server "goes away")
// Every tools/list request appends "list <pid>" to $LIFECYCLE_LOG (tests count them to prove caching).
import { appendFileSync } from 'node:fs';
import { Server, type Tool } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const log = (line: string) => {
  if (process.env.LIFECYCLE_LOG) appendFileSync(process.env.LIFECYCLE_LOG, `${line}\n`);
};
const object = { type: 'object' as const, properties: {} };
const tools: Tool[] = [
  { name: 'add-tool', description: 'Adds a tool and announces the change.', inputSchema: object },
  { name: 'wait', description: 'Waits until cancelled.', inputSchema: object },
  { name: 'exit', description: 'Exits the server process.', inputSchema: object },
];

const server = new Server({ name: 'lifecycle', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.setRequestHandler('tools/list', () => {
  log(`list ${process.pid}`);
  return { tools };
});
server.setRequestHandler('tools/call', async (request, extra) => {
  const name = request.params.name;
  if (name === 'add-tool') {
    tools.push({ name: `added-${tools.length}`, description: 'Added at run time.', inputSchema: object });
    await server.sendToolListChanged();
    return { content: [{ type: 'text', text: `now ${tools.length} tools` }] };
  }
  if (name === 'wait') {
    log(`started ${process.pid}`);
    await new Promise<void>((resolve) => extra.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true }));
    log(`cancelled ${process.pid}`);
    return { content: [{ type: 'text', text: 'cancelled' }] };
  }
  if (name === 'exit') {
    setTimeout(() => process.exit(0), 50);
    return { content: [{ type: 'text', text: 'bye' }] };
  }
  return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
});
server.connect(new StdioServerTransport()).then(() => {
  log(`ready ${process.pid}`);
  process.stderr.write(`lifecycle server ${process.pid} ready\n`); // servers log on stderr
});
