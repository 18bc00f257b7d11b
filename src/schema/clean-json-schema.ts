// The light clean-up every JSON-Schema target gets (Gemini `parametersJsonSchema`, OpenAI, Anthropic):
// a deep copy with same-document `$ref`s inlined, vendor `x-*` keys and the root `$schema` dropped and
// an object root with `properties`. Everything else is kept as written: these targets take JSON Schema.
import { childPath, indexPath } from './json-path';
import { resolvePointer } from './json-pointer';
import { shapeKeyword, shapeSchemaSlot } from './keyword-shapes';
import { copyJson, isObject, setOwn, type JsonObject, type Warn } from './types';

/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
]);
/** Keywords whose value is an array of schemas. */
export const SCHEMA_ARRAY_KEYWORDS: ReadonlySet<string> = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies']);
/** Only meaningful for resolving references, which we have done; duplicated `$id`s would even break validators. */
const DROPPED_AFTER_INLINING = new Set(['$defs', 'definitions', '$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor']);
const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];

interface Walk {
  root: unknown;
  warn: Warn;
  /** References being expanded on the current branch, to cut recursion. */
  refStack: string[];
  /** Schemas inlined so far: a budget against exponential blow-up of shared definitions. */
  inlined: number;
  /** Nesting depth of the schema being cleaned. */
  depth: number;
}

const MAX_INLINED = 5000;

export interface CleanResult {
  schema: JsonObject;
}

/** The target's single type, read as the cleaner reads it (aliases mapped, unknown names dropped). */
function simpleType(schema: unknown): string | undefined {
  // The warning, if any, was or will be given where the target itself is cleaned.
  return isObject(schema) ? normalizeOneType(schema.type, '$', () => {}) : undefined;
}

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

function slotKind(key: string): 'schema' | 'list' | 'map' {
  if (SCHEMA_MAP_KEYWORDS.has(key)) return 'map';
  return SCHEMA_KEYWORDS.has(key) ? 'schema' : 'list';
}

/**
 * Schemas nested deeper than this are cut (the deeper level accepts any value). Real tool schemas stay
 * far below it; it keeps every walker off the stack limit, and a type list can at most double it in
 * gemini-schema (validate.ts allows 2×).
 */
export const MAX_SCHEMA_DEPTH = 32;

function cleanSchema(schema: unknown, path: string, walk: Walk): unknown {
  if (walk.depth >= MAX_SCHEMA_DEPTH && isObject(schema)) {
    walk.warn(path, `schema nested deeper than ${MAX_SCHEMA_DEPTH} levels; from here on any value is accepted`);
    return {};
  }
  walk.depth++;
  try {
    return cleanSchemaAt(schema, path, walk);
  } finally {
    walk.depth--;
  }
}

function cleanSchemaAt(schema: unknown, path: string, walk: Walk): unknown {
  if (!isObject(schema)) return cleanNonObject(schema, path, walk.warn);
  for (const refKey of REF_KEYWORDS) if (typeof schema[refKey] === 'string') return inlineReference(schema, refKey, path, walk);
  const cleaned: CleanedObject = { out: {}, requiredFromMembers: [] };
  for (const key of Object.keys(schema)) cleanKeyword(schema, key, cleaned, path, walk);
  const { out, requiredFromMembers } = cleaned;
  if (requiredFromMembers.length) {
    const required = Array.isArray(out.required) ? (out.required as unknown[]) : [];
    out.required = [...new Set([...required, ...requiredFromMembers])];
  }
  return out;
}

/** An object schema being cleaned: its keywords so far, and draft-03 `required: true` members to list. */
interface CleanedObject {
  out: JsonObject;
  requiredFromMembers: string[];
}

/** true/false stay; a bare type name where a schema belongs ("name": "string") is a common slip. */
function cleanNonObject(schema: unknown, path: string, warn: Warn): unknown {
  if (typeof schema === 'boolean') return schema;
  const type = typeof schema === 'string' ? normalizeType(schema, path, () => undefined) : undefined;
  if (type !== undefined) {
    warn(path, `${JSON.stringify(schema)} is not a schema; read as {"type": ${JSON.stringify(type)}}`);
    return { type };
  }
  if (schema !== undefined) warn(path, `${JSON.stringify(schema)} is not a schema; read as any value`);
  return {};
}

/** One keyword of an object schema, cleaned into `cleaned.out` (or left out). */
function cleanKeyword(schema: JsonObject, key: string, cleaned: CleanedObject, path: string, walk: Walk): void {
  const value = schema[key];
  const { out } = cleaned;
  if (key.startsWith('x-') || DROPPED_AFTER_INLINING.has(key)) return;
  if (key === 'type') {
    const type = normalizeType(value, path, walk.warn);
    if (type !== undefined) out.type = type;
    return;
  }
  if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
    // Draft-04 form: {minimum: 0, exclusiveMinimum: true} says {exclusiveMinimum: 0} in every later draft.
    const bound = schema[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
    if (value && typeof bound === 'number') out[key] = bound;
    walk.warn(childPath(path, key), `draft-04 boolean ${key} rewritten in the numeric form later drafts use`);
    return;
  }
  if (key === 'required' && typeof value === 'boolean') {
    walk.warn(childPath(path, key), "draft-03 boolean required moved to the parent object's required list");
    return;
  }
  const isSlot = SCHEMA_KEYWORDS.has(key) || SCHEMA_ARRAY_KEYWORDS.has(key) || SCHEMA_MAP_KEYWORDS.has(key);
  const shaped = isSlot ? shapeSchemaSlot(key, value, slotKind(key), path, walk.warn) : shapeKeyword(key, value, path, walk.warn);
  if (!shaped.keep) return;
  setOwn(out, key, isSlot ? cleanSlot(key, value, cleaned, path, walk) : copyJson(shaped.value));
}

/** A schema-valued keyword: one schema, a list of them, or a map of names to them. */
function cleanSlot(key: string, value: unknown, cleaned: CleanedObject, path: string, walk: Walk): unknown {
  const keyPath = childPath(path, key);
  if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) return value.map((item, i) => cleanSchema(item, indexPath(keyPath, i), walk));
  if (SCHEMA_KEYWORDS.has(key) && typeof value === 'boolean') return value;
  if (SCHEMA_KEYWORDS.has(key) && isObject(value)) return cleanSchema(value, keyPath, walk);
  if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) return cleanSchemaMap(key, value, cleaned, keyPath, walk);
  return copyJson(value);
}

/** properties, patternProperties, dependentSchemas, dependencies: each member cleaned on its own. */
function cleanSchemaMap(key: string, value: JsonObject, cleaned: CleanedObject, keyPath: string, walk: Walk): JsonObject {
  const map: JsonObject = {};
  for (const name of Object.keys(value)) {
    const member = value[name];
    if (key === 'patternProperties' && !isRegExp(name)) {
      walk.warn(childPath(keyPath, name), 'patternProperties key is not a valid regular expression; removed');
      continue;
    }
    // `dependencies` mixes schemas with arrays of property names; a names list must hold unique
    // strings, as JSON Schema requires (the fuzz corpus found ["", ""] passed through).
    const names = key === 'dependencies' && Array.isArray(member);
    setOwn(map, name, names ? [...new Set(member.filter((m) => typeof m === 'string'))] : cleanSchema(member, childPath(keyPath, name), walk));
    if (key === 'properties' && isObject(member) && member.required === true) cleaned.requiredFromMembers.push(name);
  }
  return map;
}

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
/** Type names servers write that are not JSON Schema's (Python/C habits). */
const TYPE_ALIASES: Record<string, string> = {
  str: 'string',
  text: 'string',
  int: 'integer',
  long: 'integer',
  float: 'number',
  double: 'number',
  bool: 'boolean',
  list: 'array',
  dict: 'object',
  map: 'object',
};

function normalizeOneType(t: unknown, path: string, warn: Warn): string | undefined {
  if (typeof t !== 'string') return undefined;
  if (JSON_TYPES.has(t)) return t;
  const alias = TYPE_ALIASES[t.toLowerCase()] ?? (JSON_TYPES.has(t.toLowerCase()) ? t.toLowerCase() : undefined);
  warn(
    childPath(path, 'type'),
    alias ? `type "${t}" is not a JSON Schema type; read as "${alias}"` : `type "${t}" is not a JSON Schema type; removed (any value)`,
  );
  return alias;
}

function normalizeType(value: unknown, path: string, warn: Warn): unknown {
  if (!Array.isArray(value)) return normalizeOneType(value, path, warn);
  const types: string[] = [];
  for (const t of value) {
    const one = normalizeOneType(t, path, warn);
    if (one !== undefined && !types.includes(one)) types.push(one);
  }
  return types.length === 0 ? undefined : types.length === 1 ? types[0] : types;
}

function inlineReference(schema: JsonObject, refKey: string, path: string, walk: Walk): unknown {
  const ref = schema[refKey] as string;
  const siblings: JsonObject = {};
  let hasSiblings = false;
  for (const key of Object.keys(schema)) {
    if (key === refKey) continue;
    setOwn(siblings, key, schema[key]);
    hasSiblings = true;
  }
  const refPath = childPath(path, refKey);
  const target = resolvePointer(walk.root, ref);
  let inlined: unknown;
  if (target === undefined) {
    walk.warn(refPath, `reference "${ref}" cannot be resolved inside this schema; replaced by an open schema`);
    inlined = { description: `Schema reference ${ref} (not resolvable here)` };
  } else if (walk.inlined >= MAX_INLINED) {
    walk.warn(refPath, `reference "${ref}" not inlined: the schema expands to more than ${MAX_INLINED} references`);
    inlined = { description: `Schema reference ${ref} (too large to inline)` };
  } else if (walk.refStack.includes(ref)) {
    walk.warn(refPath, `recursive reference "${ref}" cut after one level; the deeper level accepts any value of the same type`);
    const type = simpleType(target);
    inlined = { ...(type ? { type } : {}), description: `Recursive: same structure as ${ref}` };
  } else {
    walk.inlined++;
    walk.refStack.push(ref);
    inlined = cleanSchema(target, path, walk);
    walk.refStack.pop();
  }
  if (!hasSiblings) return inlined;
  const cleanedSiblings = cleanSchema(siblings, path, walk) as JsonObject;
  // Annotations next to a $ref describe the use site: they win over the target's.
  const annotationsOnly = Object.keys(cleanedSiblings).every((k) => ANNOTATIONS.has(k));
  if (annotationsOnly && isObject(inlined)) return { ...inlined, ...cleanedSiblings };
  return { ...cleanedSiblings, allOf: [inlined] };
}

const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/** Guarantees `type: "object"` and `properties` at the root, the one shape every provider takes. */
function objectRoot(schema: unknown, warn: Warn): JsonObject {
  if (!isObject(schema)) {
    if (schema !== true && schema !== undefined) warn('$', 'input schema is not an object schema; replaced by an empty object schema');
    return { type: 'object', properties: {} };
  }
  const out: JsonObject = { ...schema };
  const type = out.type;
  if (type !== 'object') {
    if (type !== undefined && !(Array.isArray(type) && type.includes('object'))) {
      warn('$.type', `root type ${JSON.stringify(type)} is not "object"; tool arguments are always an object`);
    }
    out.type = 'object';
  }
  if (!isObject(out.properties)) out.properties = {};
  return out;
}

export function cleanJsonSchema(inputSchema: unknown, warn: Warn): CleanResult {
  const walk: Walk = { root: inputSchema, warn, refStack: [], inlined: 0, depth: 0 };
  const cleaned = cleanSchema(inputSchema, '$', walk);
  const schema = objectRoot(cleaned, warn);
  delete schema.$schema;
  return { schema };
}
