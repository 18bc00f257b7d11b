// Checks tool arguments against the tool's inputSchema before anything is sent, so a bad call
// fails here with the path and the reason instead of as an opaque server error.
import Ajv2020 from 'ajv/dist/2020';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Tool } from './sdk';

const ajv2020 = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
const ajv07 = addFormats(new Ajv({ strict: false, allErrors: true, validateFormats: true }));
const compiled = new WeakMap<object, ValidateFunction | null>();

function validatorFor(schema: object): ValidateFunction | null {
  if (compiled.has(schema)) return compiled.get(schema)!;
  const { $schema, ...rest } = schema as Record<string, unknown>;
  const draft07 = typeof $schema === 'string' && /draft-0[4-7]/.test($schema);
  let fn: ValidateFunction | null = null;
  for (const engine of draft07 ? [ajv07, ajv2020] : [ajv2020, ajv07]) {
    try {
      fn = engine.compile(rest);
      break;
    } catch {
      /* try the other dialect; a schema neither can compile is left to the server */
    }
  }
  compiled.set(schema, fn);
  return fn;
}

/** undefined when the arguments are valid, else "path: reason; path: reason". */
export function validateArguments(tool: Tool, args: unknown): string | undefined {
  return schemaProblems(tool.inputSchema, args);
}

/** The same check for any schema (a tool's outputSchema against structuredContent). */
export function schemaProblems(schema: unknown, value: unknown): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const validate = validatorFor(schema);
  if (!validate || validate(value)) return undefined;
  return (validate.errors ?? []).map(describe).join('; ');
}

function describe(e: ErrorObject): string {
  const path = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(arguments)';
  if (e.keyword === 'required') return `${path === '(arguments)' ? '' : path + '.'}${(e.params as { missingProperty: string }).missingProperty}: is required`;
  if (e.keyword === 'additionalProperties') return `${path}: unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'enum') return `${path}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
  return `${path}: ${e.message}`;
}
