// A todo MCP server written with the TypeScript `fastmcp` framework (npm `fastmcp`, an implementation
// of the server side that shares no code with ours or with the official SDK's server), serving the
// todo tools of the package's todo contract (docs/todo-server.md) with their JSON Schemas written out
// here, from the contract's text, not imported from servers/todo/. Data lives in memory.
//   node --import tsx test/peers/fastmcp-todo/server.ts stdio [pid-log]   (appends "ready <pid>" to pid-log)
//   node --import tsx test/peers/fastmcp-todo/server.ts http <port>   (127.0.0.1, path /mcp; prints "listening <port>")
import { appendFileSync } from 'node:fs';
import { FastMCP, jsonSchemaAdapter, UserError } from 'fastmcp';
import { FASTMCP_TODO_SCHEMAS } from './schemas';

interface Todo {
  todo_id: string;
  title: string;
  description: string | null;
  due_date: string | null;
  priority: string;
  status: string;
  tags: string[];
}

const todos = new Map<string, Todo>();
let nextId = 1;
const json = (value: unknown) => JSON.stringify(value);

const server = new FastMCP({ name: 'fastmcp-todo', version: '1.0.0' });

/** Adds a tool whose arguments fastmcp has already checked against its schema. */
function todoTool(name: keyof typeof FASTMCP_TODO_SCHEMAS, description: string, run: (args: Record<string, any>) => Promise<string>): void {
  server.addTool({ name, description, parameters: jsonSchemaAdapter(FASTMCP_TODO_SCHEMAS[name]), execute: (args) => run(args as Record<string, any>) });
}

todoTool('create_todo', 'Create a new todo item with optional due date, priority, and tags', async (args) => {
  const todo: Todo = {
    todo_id: `todo_${nextId++}`,
    title: args.title,
    description: args.description ?? null,
    due_date: args.due_date ?? null,
    priority: args.priority ?? 'medium',
    status: 'pending',
    tags: args.tags ?? [],
  };
  todos.set(todo.todo_id, todo);
  return json({ success: true, todo_id: todo.todo_id, message: 'Todo created successfully' });
});

todoTool('list_todos', 'List todo items with optional filtering by status, priority, due date, or tags', async (args) => {
  const status = args.status ?? 'pending';
  const found = [...todos.values()]
    .filter((t) => status === 'all' || t.status === status)
    .filter((t) => !args.priority || t.priority === args.priority)
    .filter((t) => (args.tags ?? []).every((tag: string) => t.tags.includes(tag)))
    .slice(0, args.limit ?? 50);
  return json({ success: true, todos: found, count: found.length });
});

todoTool('update_todo', 'Update one or more fields of an existing todo item', async (args) => {
  const todo = todos.get(args.todo_id);
  if (!todo) throw new UserError(`Todo with ID '${args.todo_id}' does not exist`);
  const { todo_id, ...fields } = args;
  Object.assign(todo, fields);
  return json({ success: true, todo_id, message: 'Todo updated successfully', updated_fields: Object.keys(fields) });
});

todoTool('delete_todo', 'Delete a todo item permanently. Requires explicit confirmation for safety.', async (args) => {
  if (!todos.delete(args.todo_id)) throw new UserError(`Todo with ID '${args.todo_id}' does not exist`);
  return json({ success: true, todo_id: args.todo_id, message: 'Todo deleted successfully' });
});

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  if (mode === 'http') {
    await server.start({ transportType: 'httpStream', httpStream: { port: Number(arg), host: '127.0.0.1', endpoint: '/mcp' } });
    console.log(`listening ${arg}`);
  } else {
    if (arg) appendFileSync(arg, `ready ${process.pid}\n`); // before start: its first answer may precede start()'s resolution
    await server.start({ transportType: 'stdio' });
  }
}

if (require.main === module) void main();
