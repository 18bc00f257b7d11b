// JSON Schema -> Gemini's OpenAPI-subset `Schema` (the `parameters` field of a FunctionDeclaration,
// and the only form the Live API and some SDKs take). Field list and upper-case types per
// Gemini's Schema reference (https://ai.google.dev/api/caching#Schema). Input is a schema already through clean-json-schema (refs
// inlined) and flatten-root (one object root). What Gemini can say is kept (every anyOf branch, enums,
// bounds, formats it knows); what it cannot is removed, reported with its path, and stated in the
// description when a model needs it to call the tool right.
import { childPath, indexPath } from './json-path';
import { foldAllOf, mergeSchemas } from './merge-schemas';
import { declaredNameMap, DECLARED_NAME_PATTERN } from './names';
import { annotate, describe, describeShape, short } from './gemini-schema-notes';
import { isObject, setOwn, type JsonObject, type Warn } from './types';

export type GeminiType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';
export type GeminiSchema = JsonObject;

/** Formats Gemini accepts, per type ("format: only 'enum' and 'date-time' are supported for STRING type", gemini-cli#3178). */
export const GEMINI_FORMATS: Record<string, readonly string[]> = {
  STRING: ['enum', 'date-time'],
  INTEGER: ['int32', 'int64'],
  NUMBER: ['float', 'double'],
};

const JSON_TO_GEMINI: Record<string, GeminiType> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
  null: 'NULL',
};

const STRING_KEYS = ['minLength', 'maxLength', 'pattern'];
const NUMBER_KEYS = ['minimum', 'maximum'];
const ARRAY_KEYS = ['minItems', 'maxItems'];
const OBJECT_KEYS = ['minProperties', 'maxProperties'];

interface Ctx {
  warn: Warn;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = jsonTypeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

/** Types a schema without `type` stands for, read from its other keywords. */
function inferTypes(s: JsonObject, values: unknown[] | undefined): string[] {
  if (values) {
    const types: string[] = [];
    for (const v of values) {
      const t = jsonTypeOf(v);
      const key = t === 'integer' ? 'number' : t;
      if (!types.includes(key)) types.push(key);
    }
    if (types.includes('number') && values.every((v) => typeof v !== 'number' || Number.isInteger(v))) {
      types[types.indexOf('number')] = 'integer';
    }
    return types;
  }
  if (['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties', 'propertyNames'].some((k) => k in s))
    return ['object'];
  if (['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'].some((k) => k in s)) return ['array'];
  if (['minLength', 'maxLength', 'pattern'].some((k) => k in s)) return ['string'];
  if (['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'].some((k) => k in s)) return ['number'];
  if (typeof s.format === 'string') return ['string'];
  return [];
}

export function toGeminiSchema(schema: unknown, path: string, ctx: Ctx): GeminiSchema {
  if (schema === false) {
    ctx.warn(path, 'false schema (no value allowed) cannot be said in Gemini Schema; declared as a string nobody should send');
    return { type: 'STRING', description: 'No value is allowed here; leave it out.' };
  }
  if (!isObject(schema)) return anyValue({}, path, ctx, []);
  let s = schema;
  const notes: string[] = [];
  if (Array.isArray(s.allOf)) {
    const folded = foldAllOf(s);
    ctx.warn(childPath(path, 'allOf'), 'allOf is not a Gemini Schema field; its schemas were merged into one');
    for (const c of folded.conflicts) ctx.warn(childPath(path, 'allOf'), `allOf: conflicting "${c}", the first value was kept`);
    s = folded.schema;
  }
  if (isObject(s.not) || s.not === true) {
    notes.push(`Must not match ${short(s.not)}`);
    ctx.warn(childPath(path, 'not'), 'not is not a Gemini Schema field; stated in the description');
  }
  if ('if' in s || 'then' in s || 'else' in s) {
    const parts = ['if', 'then', 'else'].filter((k) => k in s).map((k) => `${k} ${short(s[k], 80)}`);
    notes.push(`Conditional rule: ${parts.join('; ')}`);
    ctx.warn(childPath(path, 'if'), 'if/then/else are not Gemini Schema fields; stated in the description');
  }
  const alternatives = Array.isArray(s.anyOf) ? 'anyOf' : Array.isArray(s.oneOf) ? 'oneOf' : undefined;
  if (alternatives) return fromAlternatives(s, alternatives, path, notes, ctx);
  return fromTypes(s, path, notes, ctx);
}

/** anyOf/oneOf: every branch is kept. Keywords of the parent hold for each branch, so they move into them. */
function fromAlternatives(s: JsonObject, key: 'anyOf' | 'oneOf', path: string, notes: string[], ctx: Ctx): GeminiSchema {
  const keyPath = childPath(path, key);
  if (key === 'oneOf') ctx.warn(keyPath, 'oneOf is not a Gemini Schema field; rewritten as anyOf (a value should match exactly one branch)');
  if (key === 'anyOf' && Array.isArray(s.oneOf)) {
    notes.push(`Must also match exactly one of ${short(s.oneOf)}`);
    ctx.warn(childPath(path, 'oneOf'), 'oneOf next to anyOf cannot be said in Gemini Schema; stated in the description');
  }
  const branches = s[key] as unknown[];
  const { anyOf: _a, oneOf: _o, title, description, default: dflt, example, examples, deprecated, ...shared } = s;
  const out: GeminiSchema = {};
  const annotations: JsonObject = { title, default: dflt, example, examples, deprecated };
  for (const k of Object.keys(annotations)) if (annotations[k] === undefined) delete annotations[k];
  annotate(annotations, out, path, notes, ctx);
  const sharedKeys = Object.keys(shared).filter((k) => !['not', 'if', 'then', 'else', '$comment', 'readOnly', 'writeOnly'].includes(k));
  const converted: GeminiSchema[] = [];
  let nullable = shared.nullable === true;
  branches.forEach((branch, i) => {
    const branchPath = indexPath(keyPath, i);
    if (isObject(branch) && branch.type === 'null' && Object.keys(branch).every((k) => k === 'type' || k === 'description' || k === 'title')) {
      nullable = true;
      return;
    }
    let merged = branch;
    if (sharedKeys.length) {
      const base: JsonObject = {};
      for (const k of sharedKeys) base[k] = shared[k];
      const m = mergeSchemas(branch, base);
      for (const c of m.conflicts) ctx.warn(branchPath, `"${c}" of the parent conflicts with this branch; the branch's value was kept`);
      merged = m.schema;
    }
    converted.push(toGeminiSchema(merged, branchPath, ctx));
  });
  describe(out, description, notes);
  if (converted.length === 0) return { ...out, type: 'NULL' };
  if (nullable) for (const c of converted) markNullable(c);
  if (converted.length === 1) {
    // One branch (plus perhaps null, now `nullable`) says the same without the anyOf.
    const only = converted[0];
    const merged: GeminiSchema = { ...only, ...out };
    const texts = [out.description, only.description].filter((t) => typeof t === 'string' && t);
    if (texts.length) merged.description = [...new Set(texts)].join(' ');
    return merged;
  }
  out.anyOf = converted;
  return out;
}

/** Null allowed: said on the typed schemas themselves (a schema holding only anyOf has no type to qualify). */
function markNullable(schema: GeminiSchema): void {
  if (Array.isArray(schema.anyOf)) for (const branch of schema.anyOf as GeminiSchema[]) markNullable(branch);
  else schema.nullable = true;
}

function anyValue(s: JsonObject, path: string, ctx: Ctx, notes: string[]): GeminiSchema {
  // Gemini needs a type on every schema; an open schema (`{}`, HA's GetLiveContext.domain first branch)
  // is declared as STRING, the type a model can always fill, and described as open.
  ctx.warn(path, 'schema without a type (any value) declared as STRING; the description says any value is accepted');
  const out: GeminiSchema = { type: 'STRING' };
  annotate(s, out, path, notes, ctx);
  describe(out, s.description, [...notes, 'Any value is accepted']);
  return out;
}

function fromTypes(s: JsonObject, path: string, notes: string[], ctx: Ctx): GeminiSchema {
  const values: unknown[] | undefined = 'const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : undefined;
  if ('const' in s) ctx.warn(childPath(path, 'const'), 'const is not a Gemini Schema field; rewritten as a one-value enum');
  let types = Array.isArray(s.type)
    ? [...new Set(s.type.filter((t): t is string => typeof t === 'string'))]
    : typeof s.type === 'string'
      ? [s.type]
      : inferTypes(s, values);
  if (Array.isArray(s.type) && s.type.length > 1)
    ctx.warn(childPath(path, 'type'), 'a list of types is not allowed in Gemini Schema; rewritten as anyOf/nullable');
  const nullable = s.nullable === true || types.includes('null') || (values?.includes(null) ?? false);
  types = types.filter((t) => t !== 'null' && JSON_TO_GEMINI[t] !== undefined);
  if (values) {
    const usable = types.filter((t) => values.some((v) => typeMatches(v, t)));
    if (usable.length === 0 && values.some((v) => v !== null)) {
      ctx.warn(childPath(path, 'enum'), 'no enum value matches the declared type; the values are stated in the description');
      notes.push(`Allowed values: ${values.map((v) => short(v, 60)).join(', ')}`);
    } else types = usable;
  }
  if (types.length === 0) {
    if (nullable && (s.type === 'null' || (values && values.every((v) => v === null)))) {
      const out: GeminiSchema = { type: 'NULL' };
      annotate(s, out, path, notes, ctx);
      describe(out, s.description, notes);
      return out;
    }
    const out = anyValue(s, path, ctx, notes);
    if (nullable) out.nullable = true;
    return out;
  }
  if (types.length === 1) {
    const out = typed(s, types[0], values, path, notes, ctx);
    if (nullable) out.nullable = true;
    return out;
  }
  // Several types: one anyOf branch per type, each with the keywords that apply to it.
  const out: GeminiSchema = {};
  annotate(s, out, path, notes, ctx);
  describe(out, s.description, notes);
  out.anyOf = types.map((t) => {
    const branch = typed(s, t, values, path, [], ctx, true);
    if (nullable) branch.nullable = true;
    return branch;
  });
  return out;
}

/** One JSON type -> one Gemini schema. A `branch` (one type of a type list) leaves annotations to its parent. */
function typed(s: JsonObject, type: string, values: unknown[] | undefined, path: string, notes: string[], ctx: Ctx, branch = false): GeminiSchema {
  const gType = JSON_TO_GEMINI[type];
  const out: GeminiSchema = { type: gType };
  const warn = ctx.warn;
  if (!branch) annotate(s, out, path, notes, ctx);
  const own = values?.filter((v) => typeMatches(v, type));
  if (own && own.length) {
    if (gType === 'STRING') out.enum = own.map(String);
    else if (gType === 'BOOLEAN') {
      if (own.length === 1) notes.push(`Must be ${own[0]}`);
    } else {
      notes.push(own.length === 1 ? `Must be ${short(own[0])}` : `One of: ${own.map((v) => short(v, 60)).join(', ')}`);
      if ((gType === 'NUMBER' || gType === 'INTEGER') && own.every((v) => typeof v === 'number')) {
        out.minimum = Math.min(...(own as number[]));
        out.maximum = Math.max(...(own as number[]));
      }
      warn(childPath(path, 'enum' in s ? 'enum' : 'const'), `Gemini enums are strings only; the ${type} values are stated in the description`);
    }
  }
  if (typeof s.format === 'string') {
    if ((GEMINI_FORMATS[gType] ?? []).includes(s.format)) out.format = s.format;
    else {
      notes.push(`Format: ${s.format}`);
      warn(childPath(path, 'format'), `format "${s.format}" is not accepted by Gemini for ${gType}; stated in the description`);
    }
  }
  if (gType === 'STRING') copyKeys(s, out, STRING_KEYS);
  if (gType === 'NUMBER' || gType === 'INTEGER') numeric(s, out, path, notes, ctx);
  if (gType === 'ARRAY') array(s, out, path, notes, ctx);
  if (gType === 'OBJECT') object(s, out, path, notes, ctx);
  describe(out, branch ? undefined : s.description, notes);
  return out;
}

function copyKeys(s: JsonObject, out: GeminiSchema, keys: string[]): void {
  for (const k of keys) if (k in s && (typeof s[k] === 'number' || typeof s[k] === 'string')) out[k] = s[k];
}

function numeric(s: JsonObject, out: GeminiSchema, path: string, notes: string[], ctx: Ctx): void {
  for (const k of NUMBER_KEYS) {
    if (typeof s[k] !== 'number') continue;
    // A one-value enum may already have narrowed the bounds; keep the narrower one.
    const current = out[k];
    out[k] = typeof current === 'number' ? (k === 'minimum' ? Math.max(current, s[k] as number) : Math.min(current, s[k] as number)) : s[k];
  }
  for (const [key, word, bound] of [
    ['exclusiveMinimum', 'greater than', 'minimum'],
    ['exclusiveMaximum', 'less than', 'maximum'],
  ] as const) {
    const v = s[key];
    if (v === undefined) continue;
    const limit = typeof v === 'number' ? v : v === true && typeof s[bound] === 'number' ? (s[bound] as number) : undefined;
    if (limit !== undefined) {
      notes.push(`Must be ${word} ${limit}`);
      if (typeof v === 'number' && (typeof out[bound] !== 'number' || (bound === 'minimum' ? v > (out[bound] as number) : v < (out[bound] as number))))
        out[bound] = v;
    }
    ctx.warn(childPath(path, key), `${key} is not a Gemini Schema field; the bound is kept as ${bound} and stated in the description`);
  }
  if (typeof s.multipleOf === 'number') {
    notes.push(`Must be a multiple of ${s.multipleOf}`);
    ctx.warn(childPath(path, 'multipleOf'), 'multipleOf is not a Gemini Schema field; stated in the description');
  }
}

function array(s: JsonObject, out: GeminiSchema, path: string, notes: string[], ctx: Ctx): void {
  const warn = ctx.warn;
  copyKeys(s, out, ARRAY_KEYS);
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  const tupleKey = Array.isArray(s.prefixItems) ? 'prefixItems' : 'items';
  if (tuple && tuple.length) {
    notes.push(`Positions: ${tuple.map((t, i) => `${i + 1}: ${isObject(t) && typeof t.type === 'string' ? t.type : 'any'}`).join(', ')}`);
    warn(
      childPath(path, tupleKey),
      'tuple items are not a Gemini Schema feature; items accept any of the position schemas and the order is stated in the description',
    );
    const itemsPath = childPath(path, tupleKey);
    const converted = tuple.map((t, i) => toGeminiSchema(t, indexPath(itemsPath, i), ctx));
    out.items = converted.length === 1 ? converted[0] : { anyOf: converted };
  } else if (isObject(s.items) || s.items === true) {
    out.items = toGeminiSchema(s.items, childPath(path, 'items'), ctx);
  } else {
    warn(childPath(path, 'items'), 'array without items: Gemini requires items, declared as an array of strings');
    out.items = { type: 'STRING' };
  }
  if (s.uniqueItems === true) {
    notes.push('Items must be unique');
    warn(childPath(path, 'uniqueItems'), 'uniqueItems is not a Gemini Schema field; stated in the description');
  }
  if ('contains' in s) {
    notes.push(`Must contain an item matching ${short(s.contains, 80)}`);
    warn(childPath(path, 'contains'), 'contains is not a Gemini Schema field; stated in the description');
  }
  for (const key of ['additionalItems', 'unevaluatedItems', 'minContains', 'maxContains']) {
    if (key in s) warn(childPath(path, key), `${key} is not a Gemini Schema field; removed`);
  }
}

/**
 * "__proto__" is a valid parameter name, but @google/genai rebuilds `parameters` by assignment and
 * silently loses it (seen on the wire, test/schema/genai-sdk.test.ts): it is renamed like a bad name.
 */
const RESERVED_PARAMETER_NAMES: ReadonlySet<string> = new Set(['__proto__']);

/** Gemini parameter names: letter or underscore first, then [A-Za-z0-9_], at most 64. */
export function propertyNameMap(names: string[]): Map<string, string> {
  if (names.every((n) => DECLARED_NAME_PATTERN.test(n) && !RESERVED_PARAMETER_NAMES.has(n))) return new Map(names.map((n) => [n, n]));
  return declaredNameMap(names, { reserved: RESERVED_PARAMETER_NAMES });
}

function object(s: JsonObject, out: GeminiSchema, path: string, notes: string[], ctx: Ctx): void {
  const warn = ctx.warn;
  const childCtx = ctx;
  copyKeys(s, out, OBJECT_KEYS);
  const props = isObject(s.properties) ? s.properties : {};
  const propsPath = childPath(path, 'properties');
  const names = Object.keys(props).filter((name) => {
    if (props[name] !== false) return true;
    warn(childPath(propsPath, name), 'property declared false (never allowed) was left out');
    return false;
  });
  const rename = propertyNameMap(names);
  const properties: JsonObject = {};
  for (const name of names) {
    const declared = rename.get(name) ?? name;
    const converted = toGeminiSchema(props[name], childPath(propsPath, name), childCtx);
    if (declared !== name) {
      const why = RESERVED_PARAMETER_NAMES.has(name) ? 'is dropped by @google/genai' : "breaks Gemini's parameter-name rule";
      warn(childPath(propsPath, name), `parameter name "${name}" ${why}; declared as "${declared}" (restoreArgumentNames maps it back)`);
      describe(converted, converted.description, [`Sent to the tool as "${name}"`]);
    }
    setOwn(properties, declared, converted);
  }
  out.properties = properties;
  if (Array.isArray(s.required)) {
    const required: string[] = [];
    for (const r of s.required) {
      const declared = typeof r === 'string' ? rename.get(r) : undefined;
      if (declared) required.push(declared);
      else warn(childPath(path, 'required'), `required names "${String(r)}", which is not a declared property; Gemini rejects that, so it was left out`);
    }
    if (required.length) out.required = [...new Set(required)];
  }
  if (Array.isArray(s.propertyOrdering)) {
    const ordering = s.propertyOrdering.map((n) => rename.get(String(n))).filter((n): n is string => !!n);
    if (ordering.length) out.propertyOrdering = ordering;
  }
  const ap = s.additionalProperties;
  if (ap !== undefined) {
    if (isObject(ap) && names.length === 0) notes.push(`Free-form object: any keys, each value ${describeShape(ap)}`);
    else if (ap === true && names.length === 0) notes.push('Free-form object: any keys and values');
    else if (isObject(ap)) notes.push(`Other keys are allowed, each value ${describeShape(ap)}`);
    warn(
      childPath(path, 'additionalProperties'),
      `additionalProperties is not a Gemini Schema field; removed${isObject(ap) || (ap === true && names.length === 0) ? ', its meaning stated in the description' : ''}`,
    );
  }
  if (isObject(s.patternProperties)) {
    const rules = Object.entries(s.patternProperties).map(([p, v]) => `keys matching /${p}/ hold ${describeShape(v)}`);
    notes.push(`Other keys: ${rules.join('; ')}`);
    warn(childPath(path, 'patternProperties'), 'patternProperties is not a Gemini Schema field; stated in the description');
  }
  if ('propertyNames' in s) {
    notes.push(`Key names must match ${short(s.propertyNames, 80)}`);
    warn(childPath(path, 'propertyNames'), 'propertyNames is not a Gemini Schema field; stated in the description');
  }
  for (const key of ['dependentRequired', 'dependencies']) {
    const dependent = s[key];
    if (!isObject(dependent)) continue;
    for (const [name, dep] of Object.entries(dependent)) {
      notes.push(Array.isArray(dep) ? `If ${name} is given, ${dep.join(', ')} must be given too` : `If ${name} is given, also ${short(dep, 80)}`);
    }
    warn(childPath(path, key), `${key} is not a Gemini Schema field; stated in the description`);
  }
  for (const key of ['dependentSchemas', 'unevaluatedProperties']) {
    if (key in s) warn(childPath(path, key), `${key} is not a Gemini Schema field; removed`);
  }
}
