// Keyword values of the wrong JSON type ("minimum": "0", "required": true, an invalid regex in
// "pattern") make a schema invalid JSON Schema, and providers answer with a 400 for the whole request.
// Numeric strings become numbers; anything else that cannot be read is dropped and reported.
import { childPath } from './json-path';
import { isObject, type Warn } from './types';
import { shorten } from '../text';

const NUMBERS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains']);
const STRINGS = new Set([
  'title',
  'description',
  'format',
  '$comment',
  'contentMediaType',
  'contentEncoding',
  '$schema',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
]);
const BOOLEANS = new Set(['uniqueItems', 'deprecated', 'readOnly', 'writeOnly']);

const SHAPED = new Set([...NUMBERS, ...COUNTS, ...STRINGS, ...BOOLEANS, 'enum', 'examples', 'pattern', 'required', 'dependentRequired', 'propertyOrdering']);

export type Shaped = { keep: true; value: unknown } | { keep: false };

const DROP: Shaped = { keep: false };

function isStringOrNumber(v: unknown): boolean {
  return typeof v === 'string' || typeof v === 'number';
}

function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** Reads one keyword value into the shape JSON Schema requires, or says to drop it. */
export function shapeKeyword(key: string, value: unknown, path: string, warn: Warn): Shaped {
  if (!SHAPED.has(key)) return { keep: true, value };
  // Paths are built only when there is something to report: this runs for every keyword of every schema.
  if (NUMBERS.has(key)) {
    // Draft-04 boolean exclusive bounds are rewritten by the caller.
    if (typeof value === 'boolean' && key.startsWith('exclusive')) return { keep: true, value };
    const n = asNumber(value);
    if (n === undefined || (key === 'multipleOf' && n <= 0)) return dropped(childPath(path, key), key, value, warn);
    if (n !== value) warn(childPath(path, key), `${key} ${JSON.stringify(value)} read as the number ${n}`);
    return { keep: true, value: n };
  }
  if (COUNTS.has(key)) {
    const n = asNumber(value);
    if (n === undefined || n < 0 || !Number.isInteger(n)) return dropped(childPath(path, key), key, value, warn);
    if (n !== value) warn(childPath(path, key), `${key} ${JSON.stringify(value)} read as the number ${n}`);
    return { keep: true, value: n };
  }
  if (STRINGS.has(key)) return typeof value === 'string' ? { keep: true, value } : dropped(childPath(path, key), key, value, warn);
  if (BOOLEANS.has(key)) return typeof value === 'boolean' ? { keep: true, value } : dropped(childPath(path, key), key, value, warn);
  if (key === 'enum' && Array.isArray(value) && value.length === 0)
    return dropped(childPath(path, key), key, value, warn, 'is empty (no value allowed; draft-07 rejects it)');
  if (key === 'enum' && Array.isArray(value)) {
    // Draft-07 wants distinct values; a repeated value says nothing more.
    if (value.every(isStringOrNumber) && new Set(value).size === value.length) return { keep: true, value };
    const seen = new Set<string>();
    const distinct: unknown[] = [];
    for (const v of value) {
      const key = JSON.stringify(v);
      if (!seen.has(key)) distinct.push(v);
      seen.add(key);
    }
    return { keep: true, value: distinct };
  }
  if (key === 'enum' || key === 'examples') return Array.isArray(value) ? { keep: true, value } : dropped(childPath(path, key), key, value, warn);
  if (key === 'pattern') {
    if (typeof value !== 'string') return dropped(childPath(path, key), key, value, warn);
    try {
      new RegExp(value, 'u');
      return { keep: true, value };
    } catch {
      return dropped(childPath(path, key), key, value, warn, 'is not a valid regular expression');
    }
  }
  if (key === 'required') {
    if (!Array.isArray(value)) return dropped(childPath(path, key), key, value, warn);
    const names = value.filter((v): v is string => typeof v === 'string');
    if (names.length !== value.length) warn(childPath(path, key), 'required lists non-string entries; they were left out');
    return { keep: true, value: [...new Set(names)] };
  }
  if (key === 'dependentRequired') {
    if (!isObject(value)) return dropped(childPath(path, key), key, value, warn);
    const out: Record<string, string[]> = {};
    for (const [name, list] of Object.entries(value)) {
      if (Array.isArray(list))
        // Unique names, as JSON Schema requires (the fuzz corpus found ["", ""] passed through).
        Object.defineProperty(out, name, {
          value: [...new Set(list.filter((v) => typeof v === 'string'))],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else warn(childPath(childPath(path, key), name), 'dependentRequired entry is not a list of names; removed');
    }
    return { keep: true, value: out };
  }
  if (key === 'propertyOrdering' && !(Array.isArray(value) && value.every((v) => typeof v === 'string')))
    return dropped(childPath(path, key), key, value, warn);
  return { keep: true, value };
}

/** Schema-valued keywords: the value must be a schema (object or boolean), a list or a map of them. */
export function shapeSchemaSlot(key: string, value: unknown, expects: 'schema' | 'list' | 'map', path: string, warn: Warn): Shaped {
  const ok =
    expects === 'list' ? Array.isArray(value) && value.length > 0 : expects === 'map' ? isObject(value) : isObject(value) || typeof value === 'boolean';
  // `items` may also be a draft-07 tuple (a list).
  if (ok || (key === 'items' && Array.isArray(value) && value.length > 0)) return { keep: true, value };
  return dropped(childPath(path, key), key, value, warn);
}

function dropped(at: string, key: string, value: unknown, warn: Warn, why = 'has an invalid value'): Shaped {
  const shown = JSON.stringify(value) ?? String(value);
  warn(at, `${key} ${why} (${shorten(shown, 60)}); removed`);
  return DROP;
}
