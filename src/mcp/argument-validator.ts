// Checks tool arguments against the tool's inputSchema before anything is sent, so a bad call
// fails here with the path and the reason instead of as an opaque server error.
import { compileArgumentCheck, type ArgumentCheck } from '../schema/json-schema-dialect';
import type { Tool } from './sdk';

/** One check per schema object; null when no dialect compiles it (the server is left to judge). */
const compiled = new WeakMap<object, ArgumentCheck | null>();

function checkFor(schema: object): ArgumentCheck | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  let check: ArgumentCheck | null = null;
  try {
    check = compileArgumentCheck(schema);
  } catch {
    /* a schema neither dialect can compile is left to the server */
  }
  compiled.set(schema, check);
  return check;
}

/** undefined when the arguments are valid, else "path: reason; path: reason". */
export function validateArguments(tool: Tool, args: unknown): string | undefined {
  return schemaProblems(tool.inputSchema, args);
}

/** The same check for any schema (a tool's outputSchema against structuredContent). */
export function schemaProblems(schema: unknown, value: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  return checkFor(schema)?.(value);
}
