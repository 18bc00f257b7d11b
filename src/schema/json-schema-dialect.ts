// The one Ajv setup of the engine: one instance per JSON Schema dialect, formats on, lenient about
// unknown keywords (servers write them), every error collected. MCP's default dialect is 2020-12, but
// many servers (the official server-everything among them) still declare draft-07, whose tuple form
// `items: [...]` 2020-12 rejects. Used for meta-schema checks (schema compiler), tool arguments and
// structured results (MCP client), and flow tools' arguments (MCP endpoint).
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { isObject } from './types';

type AnyAjv = Ajv | Ajv2020;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

// strict: false because servers in the wild add keywords of their own; logger: false because a
// tolerated oddity is not worth a console line per compile.
const OPTIONS = { strict: false, logger: false, allErrors: true, validateFormats: true } as const;

function draft07Ajv(): Ajv {
  return (draft07 ??= addFormats(new Ajv(OPTIONS)));
}

function draft2020Ajv(): Ajv2020 {
  return (draft2020 ??= addFormats(new Ajv2020(OPTIONS)));
}

function usesTupleItems(schema: unknown, depth = 0): boolean {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return false;
  if (Array.isArray(schema)) return schema.some((s) => usesTupleItems(s, depth + 1));
  if (Array.isArray((schema as Record<string, unknown>).items)) return true;
  return Object.values(schema).some((v) => usesTupleItems(v, depth + 1));
}

function declaresDraft07OrOlder(schema: unknown): boolean {
  return isObject(schema) && typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema);
}

/** The Ajv that understands this schema: draft-07 when it says so or uses tuple items, else 2020-12. */
export function ajvFor(schema: unknown): AnyAjv {
  return declaresDraft07OrOlder(schema) || usesTupleItems(schema) ? draft07Ajv() : draft2020Ajv();
}

/** The schema without `$schema`: the dialect picks the Ajv, the meta-schema URI need not be registered. */
function withoutDialect(schema: object): object {
  if (!isObject(schema) || !('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** Meta-schema problems of a schema, [] when it is valid JSON Schema. */
export function metaSchemaProblems(schema: unknown): string[] {
  const ajv = ajvFor(schema);
  const checked = isObject(schema) ? withoutDialect(schema) : schema;
  if (ajv.validateSchema(checked as object) === true) return [];
  return (ajv.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}

/**
 * Compiles with the dialect's Ajv, then with the other one (a schema that mixes dialects often
 * compiles in one of them). Throws the first dialect's reason when neither can.
 */
function compileSchema(schema: object): ValidateFunction {
  const preferred = ajvFor(schema);
  const engines: AnyAjv[] = preferred === draft07Ajv() ? [draft07Ajv(), draft2020Ajv()] : [draft2020Ajv(), draft07Ajv()];
  const body = withoutDialect(schema);
  let firstError: unknown;
  for (const engine of engines) {
    try {
      return engine.compile(body);
    } catch (err) {
      firstError ??= err;
    } finally {
      // Ajv keeps every schema object it saw (and its $id) in the instance: tool lists are re-read on
      // every refresh and two servers may use one $id, so nothing is kept past this compile.
      engine.removeSchema(body);
    }
  }
  throw firstError;
}

/** Checks a value, answering undefined when it is valid, else "path: reason; path: reason". */
export type ArgumentCheck = (value: unknown) => string | undefined;

/** Compiles once; throws with the compiler's reason when the schema is not valid JSON Schema. */
export function compileArgumentCheck(schema: object): ArgumentCheck {
  const validate = compileSchema(schema);
  return (value) => (validate(value) ? undefined : (validate.errors ?? []).map(describeSchemaError).join('; '));
}

/** What a value's check found: the failures, and apart from them the `format` mismatches. */
export interface ArgumentReport {
  problem?: string;
  formatMismatches: Array<{ path: string; message: string }>;
}

/**
 * The check for values sent to someone else's server: JSON Schema 2020-12 makes `format` an
 * annotation, and servers often accept what a strict format check refuses (a `date-time` without an
 * offset), so a format mismatch is reported, not a failure. Everything else fails as before.
 */
export function compileArgumentReport(schema: object): (value: unknown) => ArgumentReport {
  const validate = compileSchema(schema);
  return (value) => {
    if (validate(value)) return { formatMismatches: [] };
    const errors = validate.errors ?? [];
    const formats = errors.filter((e) => e.keyword === 'format');
    // A format miss inside a branch (anyOf/oneOf) shows up as the branch failing too; those branch
    // errors say nothing more, so they go with the format mismatch.
    const others = errors.filter((e) => e.keyword !== 'format' && !(formats.length && (e.keyword === 'anyOf' || e.keyword === 'oneOf')));
    return {
      problem: others.length ? others.map(describeSchemaError).join('; ') : undefined,
      formatMismatches: formats.map((e) => ({
        path: e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(arguments)',
        message: e.message ?? 'does not match its format',
      })),
    };
  };
}

/** One Ajv error as a person reads it: dotted path ("(arguments)" at the root), then the reason. */
function describeSchemaError(e: ErrorObject): string {
  const path = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '(arguments)';
  const params = e.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] };
  if (e.keyword === 'required') return `${path === '(arguments)' ? '' : path + '.'}${params.missingProperty}: is required`;
  if (e.keyword === 'additionalProperties') return `${path}: unknown property "${params.additionalProperty}"`;
  if (e.keyword === 'enum') return `${path}: must be one of ${JSON.stringify(params.allowedValues)}`;
  return `${path}: ${e.message}`;
}
