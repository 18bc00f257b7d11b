// Anthropic rejects `anyOf`/`oneOf`/`allOf` at the top of `input_schema` ("input_schema does not
// support oneOf, allOf, or anyOf at the top level", anthropics/claude-code#40075) and OpenAI the same
// plus `enum`/`not`; Gemini's `parameters` root must be one OBJECT. MCP servers use root combinators
// to say "give at least one of these" (e.g. `anyOf:[{required:[a]},{required:[b]}]`). We fold them
// into the root object and tell the model the rule in words.
import { childPath, indexPath } from './json-path';
import { foldAllOf } from './merge-schemas';
import { hasOwn, isObject, setOwn, type JsonObject, type Warn } from './types';
import { shorten } from '../text';

export interface FlattenResult {
  schema: JsonObject;
  /** Sentences for the function description (the rules the schema can no longer say). */
  notes: string[];
}

function describeBranch(branch: unknown): string {
  if (!isObject(branch)) return 'anything';
  const required = Array.isArray(branch.required) ? branch.required.map(String) : [];
  const names = required.length ? required : isObject(branch.properties) ? Object.keys(branch.properties) : [];
  if (names.length) return names.join(' + ');
  return typeof branch.description === 'string' ? branch.description : shorten(JSON.stringify(branch), 80);
}

function foldAlternatives(schema: JsonObject, key: 'anyOf' | 'oneOf', warn: Warn, notes: string[]): JsonObject {
  const branches = schema[key];
  if (!Array.isArray(branches)) return schema;
  const { [key]: _dropped, ...out } = schema;
  const properties: JsonObject = isObject(out.properties) ? { ...out.properties } : {};
  const variants = new Map<string, unknown[]>();
  let requiredEverywhere: string[] | undefined;
  branches.forEach((branch) => {
    if (!isObject(branch)) return;
    if (isObject(branch.properties)) {
      for (const [name, prop] of Object.entries(branch.properties)) {
        if (hasOwn(properties, name)) continue;
        const list = variants.get(name) ?? [];
        if (!list.some((p) => JSON.stringify(p) === JSON.stringify(prop))) list.push(prop);
        variants.set(name, list);
      }
    }
    const req = Array.isArray(branch.required) ? branch.required.map(String) : [];
    requiredEverywhere = requiredEverywhere === undefined ? req : requiredEverywhere.filter((r) => req.includes(r));
  });
  for (const [name, list] of variants) setOwn(properties, name, list.length === 1 ? list[0] : { anyOf: list });
  out.properties = properties;
  const required = new Set(Array.isArray(out.required) ? out.required.map(String) : []);
  for (const r of requiredEverywhere ?? []) if (hasOwn(properties, r)) required.add(r);
  if (required.size) out.required = [...required];
  const word = key === 'oneOf' ? 'exactly one' : 'at least one';
  notes.push(
    `Arguments must match ${word} of: ${branches
      .map(describeBranch)
      .map((d) => `(${d})`)
      .join(' or ')}.`,
  );
  branches.forEach((_b, i) =>
    warn(
      indexPath(childPath('$', key), i),
      `top-level ${key} branch folded into the root object (providers reject ${key} at the top level); the rule is stated in the description`,
    ),
  );
  return out;
}

export function flattenRoot(input: JsonObject, warn: Warn): FlattenResult {
  const notes: string[] = [];
  let schema = input;
  if (Array.isArray(schema.allOf)) {
    const folded = foldAllOf(schema);
    for (const c of folded.conflicts) warn('$.allOf', `top-level allOf: conflicting "${c}", the first value was kept`);
    warn('$.allOf', 'top-level allOf merged into the root object');
    schema = folded.schema;
  }
  schema = foldAlternatives(schema, 'anyOf', warn, notes);
  schema = foldAlternatives(schema, 'oneOf', warn, notes);
  for (const key of ['not', 'enum', 'const'] as const) {
    if (key in schema) {
      const { [key]: value, ...rest } = schema;
      notes.push(`Arguments ${key === 'not' ? 'must not match' : 'must equal one of'}: ${shorten(JSON.stringify(key === 'const' ? [value] : value), 200)}.`);
      warn(childPath('$', key), `top-level ${key} removed (providers reject it at the top level); stated in the description`);
      schema = rest;
    }
  }
  schema.type = 'object';
  if (!isObject(schema.properties)) schema.properties = {};
  return { schema, notes };
}
