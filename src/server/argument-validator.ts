// Arguments are checked against the tool's inputSchema before a flow sees them, so a flow never
// has to defend against a malformed call. Draft 2020-12 (MCP's default dialect), draft-07 when
// the schema says so.
import Ajv2020 from 'ajv/dist/2020';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { ErrorObject, ValidateFunction } from 'ajv';

const ajv2020 = addFormats(new Ajv2020({ strict: false, allErrors: true }));
const ajv07 = addFormats(new Ajv({ strict: false, allErrors: true }));

export type ArgumentCheck = (args: unknown) => string | undefined;

/** Compiles once per tool; throws with the compiler's reason when the schema is not valid JSON Schema. */
export function compileArgumentCheck(schema: Record<string, unknown>): ArgumentCheck {
  const { $schema, ...rest } = schema;
  const engine = typeof $schema === 'string' && /draft-0[4-7]/.test($schema) ? ajv07 : ajv2020;
  const validate: ValidateFunction = engine.compile(rest);
  return (args) => (validate(args) ? undefined : (validate.errors ?? []).map(describe).join('; '));
}

function describe(e: ErrorObject): string {
  const path = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
  if (e.keyword === 'required') return `${path ? path + '.' : ''}${(e.params as { missingProperty: string }).missingProperty}: is required`;
  if (e.keyword === 'additionalProperties') return `${path || '(arguments)'}: unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  return `${path || '(arguments)'}: ${e.message}`;
}
