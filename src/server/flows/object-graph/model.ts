// How plain context data reads as the endpoint's object graph (docs/mcp-endpoint.md): an object is a subject, its `$`-keys
// are its metadata ($type, $interfaces, $title, $icon, $types), a `{value, unit}` object is a
// property with a unit, any other non-object value is a property. Paths are `/`-separated.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v) && !(v instanceof Uint8Array);

function isUnitProperty(v: unknown): v is { value: unknown; unit?: unknown } {
  if (!isPlainObject(v) || !('value' in v)) return false;
  return Object.keys(v).every((k) => k === 'value' || k === 'unit');
}

export const isSubject = (v: unknown): v is Record<string, unknown> => isPlainObject(v) && !isUnitProperty(v);

export function segmentsOf(path: unknown): string[] {
  if (path === undefined || path === null || path === '') return [];
  if (typeof path !== 'string') throw new GraphRefusal('path must be a string such as "/home/bedroom"');
  return path.split('/').filter(Boolean);
}

export const pathOf = (segments: string[]) => `/${segments.join('/')}`;

/** A refusal: a tool error with a clear text, and nothing changed. */
export class GraphRefusal extends Error {}

export interface SubjectMeta {
  $type?: string;
  $interfaces?: string[];
  $title?: string;
  $icon?: string;
}

export function metaOf(subject: Record<string, unknown>): SubjectMeta {
  const meta: SubjectMeta = {};
  if (typeof subject.$type === 'string') meta.$type = subject.$type;
  if (Array.isArray(subject.$interfaces)) meta.$interfaces = subject.$interfaces.filter((i): i is string => typeof i === 'string');
  if (typeof subject.$title === 'string') meta.$title = subject.$title;
  if (typeof subject.$icon === 'string') meta.$icon = subject.$icon;
  return meta;
}

/** Own keys that are children (not metadata). */
export const childKeys = (subject: Record<string, unknown>) => Object.keys(subject).filter((k) => !k.startsWith('$'));

export function hasChildSubjects(subject: Record<string, unknown>): boolean {
  return childKeys(subject).some((k) => isSubject(subject[k]));
}

/** The property's value and unit, unwrapping `{value, unit}`. */
export function propertyOf(v: unknown): { value: unknown; unit?: string } {
  if (isUnitProperty(v)) return typeof v.unit === 'string' ? { value: v.value, unit: v.unit } : { value: v.value };
  return { value: v };
}

export function jsonType(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** May a property holding `old` take `next`? Same JSON type (integer and number are both numbers); null takes anything. */
export function compatible(old: unknown, next: unknown): boolean {
  const a = jsonType(old);
  const b = jsonType(next);
  if (a === 'null') return b !== 'object';
  if (a === b) return true;
  return (a === 'integer' || a === 'number') && (b === 'integer' || b === 'number');
}
