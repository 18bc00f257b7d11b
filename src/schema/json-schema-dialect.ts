// One Ajv per JSON Schema dialect. MCP's default dialect is 2020-12, but many servers (the official
// server-everything among them) still declare draft-07, whose tuple form `items: [...]` 2020-12 rejects.
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { isObject } from './types';

type AnyAjv = Ajv | Ajv2020;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function usesTupleItems(schema: unknown, depth = 0): boolean {
  if (depth > 64 || typeof schema !== 'object' || schema === null) return false;
  if (Array.isArray(schema)) return schema.some((s) => usesTupleItems(s, depth + 1));
  if (Array.isArray((schema as Record<string, unknown>).items)) return true;
  return Object.values(schema).some((v) => usesTupleItems(v, depth + 1));
}

/** The Ajv that understands this schema: draft-07 when it says so or uses tuple items, else 2020-12. */
export function ajvFor(schema: unknown): AnyAjv {
  const declared = isObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(declared) || usesTupleItems(schema)) {
    draft07 ??= addFormats(new Ajv({ strict: false, logger: false, allErrors: true }));
    return draft07;
  }
  draft2020 ??= addFormats(new Ajv2020({ strict: false, logger: false, allErrors: true }));
  return draft2020;
}

/** Meta-schema problems of a schema, [] when it is valid JSON Schema. */
export function metaSchemaProblems(schema: unknown): string[] {
  // The dialect picks the Ajv; the meta-schema URI itself need not be registered.
  let withoutDialect = schema;
  if (isObject(schema) && '$schema' in schema) {
    const { $schema: _dialect, ...rest } = schema;
    withoutDialect = rest;
  }
  const ajv = ajvFor(schema);
  if (ajv.validateSchema(withoutDialect as object) === true) return [];
  return (ajv.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
}
