// Merging JSON schemas that must all hold (allOf, or a parent's keywords pushed into an anyOf branch).
// Targets that reject allOf get one schema that means the same where the keywords combine simply;
// where they do not, the first schema wins and the caller reports the conflict.
import { copyJson, hasOwn, isObject, setOwn, type JsonObject } from './types';

const TAKE_MAX = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
const TAKE_MIN = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
const TEXT = new Set(['description', 'title']);

export interface MergeResult {
  schema: JsonObject;
  /** Keywords both sides set differently, where the first side's value was kept. */
  conflicts: string[];
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function typeList(type: unknown): string[] {
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : typeof type === 'string' ? [type] : [];
}

function intersectTypes(a: unknown, b: unknown): string[] {
  const right = typeList(b);
  const out: string[] = [];
  for (const t of typeList(a)) {
    if (right.includes(t)) out.push(t);
    else if (t === 'number' && right.includes('integer')) out.push('integer');
    else if (t === 'integer' && right.includes('number')) out.push('integer');
  }
  return [...new Set(out)];
}

function asSchema(value: unknown): JsonObject {
  if (isObject(value)) return value;
  return value === false ? { not: {} } : {};
}

/** `a AND b` as one schema. Nested conflicts stay as `allOf` inside properties/items for a later pass. */
export function mergeSchemas(aIn: unknown, bIn: unknown): MergeResult {
  const a = asSchema(aIn);
  const b = asSchema(bIn);
  const out: JsonObject = { ...a };
  const conflicts: string[] = [];
  for (const key of Object.keys(b)) {
    const bv = b[key];
    if (!hasOwn(out, key)) {
      setOwn(out, key, bv);
      continue;
    }
    const av = out[key];
    if (sameJson(av, bv)) continue;
    if (key === 'properties' && isObject(av) && isObject(bv)) {
      const props: JsonObject = { ...av };
      for (const name of Object.keys(bv)) setOwn(props, name, hasOwn(props, name) ? { allOf: [props[name], bv[name]] } : bv[name]);
      out.properties = props;
    } else if (key === 'required' && Array.isArray(av) && Array.isArray(bv)) {
      out.required = [...new Set([...av, ...bv])];
    } else if (key === 'type') {
      const types = intersectTypes(av, bv);
      if (types.length === 0) conflicts.push('type');
      else out.type = types.length === 1 ? types[0] : types;
    } else if (key === 'enum' && Array.isArray(av) && Array.isArray(bv)) {
      const common = av.filter((x) => bv.some((y) => sameJson(x, y)));
      if (common.length === 0) conflicts.push('enum');
      else out.enum = common;
    } else if (TAKE_MAX.has(key) && typeof av === 'number' && typeof bv === 'number') {
      out[key] = Math.max(av, bv);
    } else if (TAKE_MIN.has(key) && typeof av === 'number' && typeof bv === 'number') {
      out[key] = Math.min(av, bv);
    } else if (TEXT.has(key) && typeof av === 'string' && typeof bv === 'string') {
      out[key] = `${av} ${bv}`;
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isObject(av) && isObject(bv)) {
      out[key] = key === 'not' ? { anyOf: [av, bv] } : { allOf: [av, bv] };
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(av) && Array.isArray(bv)) {
      // (A1|A2) AND (B1|B2) = A1B1 | A1B2 | A2B1 | A2B2
      out[key] = av.flatMap((x) => bv.map((y) => ({ allOf: [x, y] })));
    } else if (key === 'allOf' && Array.isArray(av) && Array.isArray(bv)) {
      out.allOf = [...av, ...bv];
    } else {
      conflicts.push(key);
    }
  }
  return { schema: out, conflicts };
}

/** Folds `allOf` into its parent. Returns the merged schema (without `allOf`) and the conflicting keywords. */
export function foldAllOf(schema: JsonObject): MergeResult {
  const { allOf, ...rest } = schema;
  let merged: JsonObject = rest;
  const conflicts: string[] = [];
  if (Array.isArray(allOf)) {
    for (const branch of allOf) {
      const step = mergeSchemas(merged, copyJson(branch));
      merged = step.schema;
      conflicts.push(...step.conflicts);
    }
  }
  if (Array.isArray(merged.allOf)) {
    // A branch brought its own allOf: fold again.
    const again = foldAllOf(merged);
    return { schema: again.schema, conflicts: [...conflicts, ...again.conflicts] };
  }
  return { schema: merged, conflicts };
}
