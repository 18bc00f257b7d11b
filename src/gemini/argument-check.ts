// Checks the arguments Gemini produced against the MCP tool's inputSchema before calling, so a bad
// call goes back to the model as an `{error}` it can correct instead of reaching the device.
// (The shared src/mcp/argument-validator.ts was not in the tree when this was written; this uses
// ajv directly, as the project's validator does, and can be swapped for it without other changes.)
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import type { Tool } from '../mcp/tool-provider';

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false });
addFormats(ajv);

const cache = new WeakMap<object, ValidateFunction | null>();

function compiled(schema: object): ValidateFunction | null {
  if (cache.has(schema)) return cache.get(schema) ?? null;
  let fn: ValidateFunction | null = null;
  try {
    // Draft-07 `$schema` URIs would make ajv2020 look for a meta-schema it does not have.
    const { $schema: _ignored, ...rest } = schema as Record<string, unknown>;
    fn = ajv.compile(rest);
  } catch {
    fn = null; // A schema ajv cannot compile is the server's problem; let the server judge the call.
  }
  cache.set(schema, fn);
  return fn;
}

/** undefined when valid, else "path: reason". */
export function checkArguments(tool: Tool, args: unknown): string | undefined {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return '(root): arguments must be an object';
  const schema = tool.inputSchema as object | undefined;
  if (!schema || typeof schema !== 'object') return undefined;
  const validate = compiled(schema);
  if (!validate || validate(args)) return undefined;
  const e = validate.errors?.[0];
  if (!e) return undefined;
  const path = e.instancePath || '(root)';
  const extra = e.keyword === 'additionalProperties' ? ` '${(e.params as any).additionalProperty}'` : '';
  return `${path}: ${e.message ?? 'is invalid'}${extra}`;
}
