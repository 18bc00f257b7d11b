// A small stdio MCP server (official server SDK) whose tools carry MCP annotations, for the
// approval tests: `delete_all_todos` is destructiveHint:true, `list_todos` readOnlyHint:true,
// `rename_todo` says nothing. Every call is appended as a JSON line to the file named by
// its first argument, so a test can prove a refused call never reached the server.
// Run with `node --import tsx annotated-tools-server.ts <call log file>`.
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'annotated-todos', version: '1.0.0' });
const record = (tool: string, args: unknown) => {
  if (process.argv[2]) appendFileSync(process.argv[2], JSON.stringify({ tool, args }) + '\n');
};

server.registerTool(
  'delete_all_todos',
  { description: 'Deletes every todo. Cannot be undone.', annotations: { destructiveHint: true, readOnlyHint: false } },
  async () => {
    record('delete_all_todos', {});
    return { content: [{ type: 'text', text: JSON.stringify({ deleted: 3 }) }] };
  },
);

server.registerTool('list_todos', { description: 'Lists the todos.', annotations: { readOnlyHint: true } }, async () => {
  record('list_todos', {});
  return { content: [{ type: 'text', text: JSON.stringify({ todos: ['milk', 'bread', 'eggs'] }) }] };
});

server.registerTool('rename_todo', { description: 'Renames a todo.', inputSchema: z.object({ from: z.string(), to: z.string() }) }, async (args) => {
  record('rename_todo', args);
  return { content: [{ type: 'text', text: JSON.stringify({ renamed: true }) }] };
});

server.connect(new StdioServerTransport()).catch((err) => {
  process.stderr.write(String(err) + '\n');
  process.exit(1);
});
