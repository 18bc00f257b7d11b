// The four todo tools' input schemas as the package's todo contract (docs/todo-server.md) states
// them, written out here for the fastmcp peer rather than imported from servers/todo/, so the peer
// and our own server cannot share a mistake.
import type { JsonSchemaObject } from 'fastmcp';

const PRIORITY = { type: 'string', enum: ['low', 'medium', 'high'] };

export const FASTMCP_TODO_SCHEMAS: Record<'create_todo' | 'list_todos' | 'update_todo' | 'delete_todo', JsonSchemaObject> = {
  create_todo: {
    type: 'object',
    properties: {
      title: { type: 'string', description: 'The todo item title', minLength: 1, maxLength: 200 },
      description: { type: 'string', description: 'Optional detailed description', maxLength: 1000 },
      due_date: { type: 'string', format: 'date-time', description: 'Optional due date in ISO 8601 format' },
      priority: { ...PRIORITY, description: 'Priority level', default: 'medium' },
      tags: { type: 'array', items: { type: 'string' }, description: 'Optional list of tags' },
    },
    required: ['title'],
  },
  list_todos: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['pending', 'completed', 'all'], description: 'Filter by completion status', default: 'pending' },
      priority: { ...PRIORITY, description: 'Filter by priority level' },
      due_date_filter: {
        type: 'string',
        description: "Filter by due date: 'today', 'this_week', or specific ISO date",
        examples: ['today', 'this_week', '2025-12-25'],
      },
      tags: { type: 'array', items: { type: 'string' }, description: 'Filter by tags (AND logic)' },
      limit: { type: 'integer', description: 'Maximum number of results', default: 50, maximum: 100 },
    },
    required: [],
  },
  update_todo: {
    type: 'object',
    properties: {
      todo_id: { type: 'string', description: 'The unique todo identifier' },
      title: { type: 'string', description: 'Updated title', minLength: 1, maxLength: 200 },
      description: { type: 'string', description: 'Updated description', maxLength: 1000 },
      due_date: { type: 'string', format: 'date-time', description: 'Updated due date in ISO 8601 format' },
      priority: { ...PRIORITY, description: 'Updated priority level' },
      status: { type: 'string', enum: ['pending', 'completed'], description: 'Updated completion status' },
      tags: { type: 'array', items: { type: 'string' }, description: 'Updated tags (replaces existing)' },
    },
    required: ['todo_id'],
  },
  delete_todo: {
    type: 'object',
    properties: {
      todo_id: { type: 'string', description: 'The unique todo identifier to delete' },
      confirmation: { type: 'boolean', description: 'Must be true to confirm deletion (safety check)', const: true },
    },
    required: ['todo_id', 'confirmation'],
  },
};
