// The demo server's tool list, as JSON Schemas the way servers publish them.
import type { Tool } from '@modelcontextprotocol/server';

export const DEMO_TOOLS: Tool[] = [
  {
    name: 'echo',
    title: 'Echo',
    description: 'Echoes back the message it is given.',
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get-sum',
    title: 'Sum',
    description: 'Returns the sum of two numbers, as text and as structured content.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number', description: 'First number' }, b: { type: 'number', description: 'Second number' } },
      required: ['a', 'b'],
    },
    outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'trigger-long-running-operation',
    title: 'Long running operation',
    description: 'Waits `duration` seconds in `steps` steps, sending a progress notification after each.',
    inputSchema: {
      type: 'object',
      properties: {
        duration: { type: 'number', default: 10, description: 'Duration of the operation in seconds' },
        steps: { type: 'number', default: 5, description: 'Number of steps in the operation' },
      },
    },
  },
  {
    name: 'get-tiny-image',
    title: 'Tiny image',
    description: 'Returns a small PNG image as image content.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get-time',
    title: 'Time',
    description: "Returns the server's current time (ISO 8601).",
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'book-a-table',
    title: 'Book a table',
    description: 'Books a table at a restaurant, after asking the person how many people and whether to book (an input request).',
    inputSchema: { type: 'object', properties: { restaurant: { type: 'string', description: 'Which restaurant' } } },
  },
  {
    name: 'research',
    title: 'Research',
    description: 'Researches a topic for a few seconds; runs as a task for a client that supports tasks, with a status per step.',
    inputSchema: { type: 'object', properties: { topic: { type: 'string', description: 'What to research' } } },
    annotations: { readOnlyHint: true },
  },
];
