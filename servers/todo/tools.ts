// What each of the four tools does with its arguments: validate, call the repository, answer in
// the contract's success or error shape. Transport-free, so stdio and HTTP serve the same thing.
import { LIST_LIMIT_DEFAULT, failure, type Priority, type Status, type ToolOutcome } from './contract';
import { DatabaseError } from './sql-client';
import { UPDATABLE_FIELDS, type TodoChanges, type TodoFilter, type TodoRepository } from './todo-repository';
import { isIsoDate, parseIsoDateTime, schemaViolations } from './validation';

type Args = Record<string, unknown>;

const notFound = (id: string) => failure('todo_not_found', `Todo with ID '${id}' does not exist`);

function addDays(date: Date, days: number): Date {
  const next = new Date(date);
  next.setDate(next.getDate() + days);
  return next;
}

/** The [from, before) window of a due_date_filter, in the server's local time zone. */
function dueWindow(filter: string, now = new Date()): { from: Date; before: Date } | undefined {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (filter === 'today') return { from: midnight, before: addDays(midnight, 1) };
  if (filter === 'this_week') {
    const monday = addDays(midnight, -((midnight.getDay() + 6) % 7));
    return { from: monday, before: addDays(monday, 7) };
  }
  if (isIsoDate(filter)) {
    const [y, m, d] = filter.split('-').map(Number);
    const day = new Date(y, m - 1, d);
    return { from: day, before: addDays(day, 1) };
  }
  return undefined;
}

async function createTodo(repo: TodoRepository, args: Args): Promise<ToolOutcome> {
  const todo = await repo.create({
    title: args.title as string,
    description: args.description as string | undefined,
    due_date: typeof args.due_date === 'string' ? parseIsoDateTime(args.due_date) : undefined,
    priority: (args.priority as Priority | undefined) ?? 'medium',
    tags: (args.tags as string[] | undefined) ?? [],
  });
  return { success: true, todo_id: todo.todo_id, message: 'Todo created successfully' };
}

async function listTodos(repo: TodoRepository, args: Args): Promise<ToolOutcome> {
  const limit = (args.limit as number | undefined) ?? LIST_LIMIT_DEFAULT;
  // The schema caps limit at 100 but sets no floor; zero or a negative count asks for nothing sensible.
  if (limit < 1) return failure('invalid_arguments', 'limit: must be at least 1');
  const filter: TodoFilter = {
    status: (args.status as Status | 'all' | undefined) ?? 'pending',
    priority: args.priority as Priority | undefined,
    tags: args.tags as string[] | undefined,
    limit,
  };
  if (typeof args.due_date_filter === 'string') {
    const window = dueWindow(args.due_date_filter);
    if (!window) {
      return failure('invalid_arguments', "due_date_filter: must be 'today', 'this_week' or an ISO date such as 2025-12-25");
    }
    filter.dueFrom = window.from;
    filter.dueBefore = window.before;
  }
  const todos = await repo.list(filter);
  return { success: true, todos, count: todos.length };
}

async function updateTodo(repo: TodoRepository, args: Args): Promise<ToolOutcome> {
  const id = args.todo_id as string;
  const changes: TodoChanges = {};
  for (const field of UPDATABLE_FIELDS) {
    const value = args[field];
    if (value === undefined) continue;
    (changes as Record<string, unknown>)[field] = field === 'due_date' ? parseIsoDateTime(value as string) : value;
  }
  const updatedFields = UPDATABLE_FIELDS.filter((field) => field in changes);
  if (updatedFields.length === 0) {
    return failure('invalid_arguments', `update_todo needs at least one of ${UPDATABLE_FIELDS.join(', ')} besides todo_id`);
  }
  const todo = await repo.update(id, changes);
  if (!todo) return notFound(id);
  return { success: true, todo_id: id, message: 'Todo updated successfully', updated_fields: updatedFields };
}

async function deleteTodo(repo: TodoRepository, args: Args): Promise<ToolOutcome> {
  const id = args.todo_id as string;
  if (!(await repo.delete(id))) return notFound(id);
  return { success: true, todo_id: id, message: 'Todo deleted successfully' };
}

const HANDLERS: Record<string, (repo: TodoRepository, args: Args) => Promise<ToolOutcome>> = {
  create_todo: createTodo,
  list_todos: listTodos,
  update_todo: updateTodo,
  delete_todo: deleteTodo,
};

export function isTodoTool(name: string): boolean {
  return Object.hasOwn(HANDLERS, name);
}

/** Runs one tool call; every expected failure comes back as a contract error, never a throw. */
export async function callTodoTool(repo: TodoRepository, name: string, args: unknown): Promise<ToolOutcome> {
  const handler = HANDLERS[name];
  const given = args ?? {};
  const violations = schemaViolations(name, given);
  if (violations) return failure('invalid_arguments', `Invalid arguments for ${name}: ${violations}`);
  try {
    return await handler(repo, given as Args);
  } catch (err) {
    if (err instanceof DatabaseError) return failure('database_error', err.message);
    throw err;
  }
}
