// Gemini's parameter-name rule (letter or underscore first, then [A-Za-z0-9_], at most 64) forces the
// `gemini-schema` format to rename properties such as "entity-id" or "9am". The model then calls with
// the declared names; this puts the MCP tool's own names back before the call.
import { cleanJsonSchema } from './clean-json-schema';
import { flattenRoot } from './flatten-root';
import { propertyNameMap } from './gemini-schema';
import { isObject, setOwn, type JsonObject } from './types';

const ignore = (): void => undefined;

/** Properties a value of this schema may have, including those stated in allOf/anyOf/oneOf branches. */
function propertySchemas(schema: unknown): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const visit = (s: unknown, depth: number): void => {
    if (!isObject(s) || depth > 8) return;
    if (isObject(s.properties)) {
      for (const [name, prop] of Object.entries(s.properties)) out.set(name, [...(out.get(name) ?? []), prop]);
    }
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = s[key];
      if (Array.isArray(list)) for (const b of list) visit(b, depth + 1);
    }
  };
  visit(schema, 0);
  return out;
}

function restore(schemas: unknown[], value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = schemas.flatMap((s) => (isObject(s) && isObject(s.items) ? [s.items] : []));
    const anyOfItems = schemas.flatMap((s) =>
      isObject(s) && Array.isArray(s.anyOf) ? s.anyOf.flatMap((b) => (isObject(b) && isObject(b.items) ? [b.items] : [])) : [],
    );
    const all = [...items, ...anyOfItems];
    return all.length ? value.map((v) => restore(all, v)) : value;
  }
  if (!isObject(value)) return value;
  const props = new Map<string, unknown[]>();
  for (const s of schemas) for (const [name, list] of propertySchemas(s)) props.set(name, [...(props.get(name) ?? []), ...list]);
  if (props.size === 0) return value;
  const back = new Map<string, string>();
  for (const [original, declared] of propertyNameMap([...props.keys()])) back.set(declared, original);
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const original = back.get(key) ?? key;
    setOwn(out, original, restore(props.get(original) ?? [], v));
  }
  return out;
}

/**
 * Maps the arguments of a function call made against a `gemini-schema` declaration back to the
 * property names of the tool's `inputSchema`. Arguments that needed no renaming come back unchanged.
 */
export function restoreArgumentNames(inputSchema: unknown, args: Record<string, unknown>): Record<string, unknown> {
  const flat = flattenRoot(cleanJsonSchema(inputSchema, ignore).schema, ignore).schema;
  return restore([flat], args) as Record<string, unknown>;
}
