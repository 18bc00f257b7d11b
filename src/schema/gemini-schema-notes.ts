// How gemini-schema writes down what Gemini's Schema cannot hold: the description notes, the
// annotations it keeps (title, default, example) and the report of every keyword it drops.
import { childPath } from './json-path';
import { copyJson, isObject, type JsonObject, type Warn } from './types';
import { shorten } from '../text';

/** Keywords handled by the type-specific emitters or as annotations; anything else is reported. */
const HANDLED = new Set([
  'type',
  'title',
  'description',
  'default',
  'example',
  'examples',
  'nullable',
  'enum',
  'const',
  'format',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependencies',
  'dependentSchemas',
  'propertyOrdering',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'contentMediaType',
  'contentEncoding',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$schema',
  'contentSchema',
]);

export function short(value: unknown, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return shorten(text, max);
}

function sentence(text: string): string {
  return /[.!?)]$/.test(text) ? text : text + '.';
}

/** Writes the description: the schema's own text, then the notes that carry removed meaning. */
export function describe(out: JsonObject, own: unknown, notes: string[]): void {
  const parts: string[] = [];
  const text = typeof own === 'string' ? own.trim() : '';
  if (text) parts.push(text);
  for (const n of notes) {
    const note = sentence(n);
    if (!parts.includes(note) && !text.includes(note)) parts.push(note);
  }
  // Notes follow the schema's own text as sentences of their own.
  if (parts.length > 1 && text) parts[0] = sentence(text);
  if (parts.length) out.description = parts.join(' ');
}

/** Copies annotations Gemini has (title, default, example) and reports the rest. */
export function annotate(s: JsonObject, out: JsonObject, path: string, notes: string[], ctx: { warn: Warn }): void {
  if (typeof s.title === 'string') out.title = s.title;
  if ('default' in s) out.default = copyJson(s.default);
  if ('example' in s) out.example = copyJson(s.example);
  else if (Array.isArray(s.examples) && s.examples.length) {
    out.example = copyJson(s.examples[0]);
    if (s.examples.length > 1) notes.push(`Examples: ${s.examples.map((e) => short(e, 60)).join(', ')}`);
    ctx.warn(childPath(path, 'examples'), 'examples is not a Gemini Schema field; the first became example');
  }
  if (s.deprecated === true) {
    notes.push('Deprecated');
    ctx.warn(childPath(path, 'deprecated'), 'deprecated is not a Gemini Schema field; stated in the description');
  }
  for (const key of ['readOnly', 'writeOnly', '$comment', '$schema']) {
    if (key in s) ctx.warn(childPath(path, key), `${key} is not a Gemini Schema field; removed`);
  }
  if (typeof s.contentMediaType === 'string' || typeof s.contentEncoding === 'string') {
    notes.push(`Content: ${[s.contentMediaType, s.contentEncoding].filter((x) => typeof x === 'string').join(', ')}`);
    ctx.warn(path, 'contentMediaType/contentEncoding are not Gemini Schema fields; stated in the description');
  }
  for (const key of Object.keys(s)) {
    if (!HANDLED.has(key)) ctx.warn(childPath(path, key), `${key} is not a Gemini Schema field; removed`);
  }
}

export function describeShape(schema: unknown): string {
  if (!isObject(schema)) return schema === false ? 'not allowed' : 'any value';
  if (typeof schema.type === 'string') {
    const desc = typeof schema.description === 'string' ? ` (${schema.description})` : '';
    return `a ${schema.type}${desc}`;
  }
  return `matching ${short(schema, 80)}`;
}
