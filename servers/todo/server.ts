// One MCP server instance over the shared repository. The low-level `Server` is used rather than
// McpServer so tools/list publishes the contract's JSON Schemas byte for byte and a bad argument
// comes back in the contract's `invalid_arguments` shape, not as an SDK validation error.
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { TODO_TOOLS, type ToolOutcome } from './contract';
import type { TodoRepository } from './todo-repository';
import { callTodoTool, isTodoTool } from './tools';

export const SERVER_INFO = { name: 'todo-server', version: '1.0.0' };

function toResult(outcome: ToolOutcome): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(outcome) }],
    structuredContent: outcome,
    // Failures are tool execution errors, which the agent sees and can act on (MCP 2025-11-25).
    isError: !outcome.success,
  };
}

export function createTodoServer(repo: TodoRepository): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: 'A todo list: create_todo, list_todos, update_todo, delete_todo (delete needs confirmation: true).',
  });
  server.setRequestHandler('tools/list', async () => ({ tools: TODO_TOOLS.map((tool) => ({ ...tool })) }));
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    if (!isTodoTool(name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    return toResult(await callTodoTool(repo, name, args));
  });
  return server;
}
