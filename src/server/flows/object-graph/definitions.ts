// The six object-graph tools (docs/mcp-endpoint.md, "Your home as an object graph") as MCP tool definitions.
import type { Tool } from '../../calls/types';

const path = { type: 'string', description: 'Slash-separated path from the exposed root, e.g. /home/bedroom/thermostat' };
const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const GRAPH_TOOLS: Tool[] = [
  {
    name: 'query',
    title: 'Browse the object graph',
    description:
      'Lists the subjects (things such as rooms and devices) below a path with their $type, $interfaces, $title, $icon, $methods and $hasChildren; with includeProperties also their property values. Start with no path to see the roots.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { ...path, description: 'Starting path (default: the root)' },
        depth: { type: 'integer', minimum: 1, description: 'How many levels of subjects to include (default 1)' },
        includeProperties: { type: 'boolean', description: 'Include property values (default false)' },
        filter: {
          type: 'object',
          properties: { types: { type: 'array', items: { type: 'string' }, description: 'Only subjects with one of these $type or $interfaces names' } },
        },
      },
    },
    annotations: readOnly,
  },
  {
    name: 'get_property',
    title: 'Read a property',
    description: 'Reads one property: its value, JSON type, unit and whether set_property may change it.',
    inputSchema: { type: 'object', properties: { path }, required: ['path'] },
    annotations: readOnly,
  },
  {
    name: 'set_property',
    title: 'Change a property',
    description: 'Writes one existing, writable property (same JSON type as now) and returns the previous value.',
    inputSchema: { type: 'object', properties: { path, value: { description: 'The new value' } }, required: ['path', 'value'] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'list_types',
    title: 'List capability interfaces',
    description: 'Lists the capability interfaces ($interfaces) subjects in the graph implement, with descriptions where known.',
    inputSchema: { type: 'object', properties: {} },
    annotations: readOnly,
  },
  {
    name: 'list_methods',
    title: "List a subject's methods",
    description: 'Lists the methods (operations a flow performs) of the subject at path, with their parameters.',
    inputSchema: { type: 'object', properties: { path }, required: ['path'] },
    annotations: readOnly,
  },
  {
    name: 'invoke_method',
    title: 'Invoke a method',
    description: 'Runs a method of the subject at path (see list_methods) with its arguments.',
    inputSchema: {
      type: 'object',
      properties: { path, method: { type: 'string' }, arguments: { type: 'object', description: "The method's arguments" } },
      required: ['path', 'method'],
    },
    annotations: { readOnlyHint: false, openWorldHint: false },
  },
];
