// The four tool contracts of the todo backend, as docs/todo-server.md states them field
// for field. Agents and the `mcp-list-tools` `expected`
// check depend on these names, limits and shapes, so change them only together with that page.
import type { Tool } from '@modelcontextprotocol/server';

export const PRIORITIES = ['low', 'medium', 'high'] as const;
export const STATUSES = ['pending', 'completed'] as const;
export type Priority = (typeof PRIORITIES)[number];
export type Status = (typeof STATUSES)[number];

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 1000;
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 100;

type InputSchema = Tool['inputSchema'];

const tagsSchema = (description: string) => ({ type: 'array', items: { type: 'string' }, description });

export const TODO_TOOLS: ReadonlyArray<{ name: string; description: string; inputSchema: InputSchema }> = [
  {
    name: 'create_todo',
    description: 'Create a new todo item with optional due date, priority, and tags',
    inputSchema: {
      type: 'object',
      properties: {
        title: { type: 'string', description: 'The todo item title', minLength: 1, maxLength: TITLE_MAX },
        description: { type: 'string', description: 'Optional detailed description', maxLength: DESCRIPTION_MAX },
        due_date: { type: 'string', format: 'date-time', description: 'Optional due date in ISO 8601 format' },
        priority: { type: 'string', enum: [...PRIORITIES], description: 'Priority level', default: 'medium' },
        tags: tagsSchema('Optional list of tags'),
      },
      required: ['title'],
    },
  },
  {
    name: 'list_todos',
    description: 'List todo items with optional filtering by status, priority, due date, or tags',
    inputSchema: {
      type: 'object',
      properties: {
        status: {
          type: 'string',
          enum: ['pending', 'completed', 'all'],
          description: 'Filter by completion status',
          default: 'pending',
        },
        priority: { type: 'string', enum: [...PRIORITIES], description: 'Filter by priority level' },
        due_date_filter: {
          type: 'string',
          description: "Filter by due date: 'today', 'this_week', or specific ISO date",
          examples: ['today', 'this_week', '2025-12-25'],
        },
        tags: tagsSchema('Filter by tags (AND logic)'),
        limit: {
          type: 'integer',
          description: 'Maximum number of results',
          default: LIST_LIMIT_DEFAULT,
          maximum: LIST_LIMIT_MAX,
        },
      },
      required: [],
    },
  },
  {
    name: 'update_todo',
    description: 'Update one or more fields of an existing todo item',
    inputSchema: {
      type: 'object',
      properties: {
        todo_id: { type: 'string', description: 'The unique todo identifier' },
        title: { type: 'string', description: 'Updated title', minLength: 1, maxLength: TITLE_MAX },
        description: { type: 'string', description: 'Updated description', maxLength: DESCRIPTION_MAX },
        due_date: { type: 'string', format: 'date-time', description: 'Updated due date in ISO 8601 format' },
        priority: { type: 'string', enum: [...PRIORITIES], description: 'Updated priority level' },
        status: { type: 'string', enum: [...STATUSES], description: 'Updated completion status' },
        tags: tagsSchema('Updated tags (replaces existing)'),
      },
      required: ['todo_id'],
    },
  },
  {
    name: 'delete_todo',
    description: 'Delete a todo item permanently. Requires explicit confirmation for safety.',
    inputSchema: {
      type: 'object',
      properties: {
        todo_id: { type: 'string', description: 'The unique todo identifier to delete' },
        confirmation: {
          type: 'boolean',
          description: 'Must be true to confirm deletion (safety check)',
          const: true,
        },
      },
      required: ['todo_id', 'confirmation'],
    },
  },
];

/** A todo as every tool returns it (dates as ISO 8601 strings in UTC). */
export interface TodoView {
  todo_id: string;
  title: string;
  description: string | null;
  due_date: string | null;
  priority: Priority;
  status: Status;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export type ErrorType = 'todo_not_found' | 'invalid_arguments' | 'database_error';

export interface ToolFailure {
  success: false;
  error_type: ErrorType;
  message: string;
  recoverable: boolean;
}

export type ToolSuccess = { success: true } & Record<string, unknown>;
export type ToolOutcome = ToolSuccess | ToolFailure;

// Whether retrying can help: fixed arguments can succeed and a database may come back, but a todo
// that does not exist stays missing (the contract marks todo_not_found unrecoverable).
const RECOVERABLE: Record<ErrorType, boolean> = {
  todo_not_found: false,
  invalid_arguments: true,
  database_error: true,
};

export function failure(error_type: ErrorType, message: string): ToolFailure {
  return { success: false, error_type, message, recoverable: RECOVERABLE[error_type] };
}
