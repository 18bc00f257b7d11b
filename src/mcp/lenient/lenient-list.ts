// Reads one page of tools/list, prompts/list or resources/list the way servers really send it.
// The SDK validates a whole page with one zod schema and throws on the first deviation, so one bad
// tool hides every other. Here each entry is checked on its own with the SDK's own per-entry schema
// (`specTypeSchemas.Tool|Prompt|Resource`): what has one clear meaning is repaired, what cannot be
// used is left out, and every repair or omission becomes a warning naming the entry.
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { McpNodeError } from '../../errors';
import { shorten } from '../../text';

export type ListKind = 'tools' | 'prompts' | 'resources';

/** `{tool, path, message}` (mcp-list-tools' msg.mcp.warnings); prompts and resources name themselves `prompt` / `resource`. */
export interface ListWarning {
  tool?: string;
  prompt?: string;
  resource?: string;
  path: string;
  message: string;
}

export interface LenientPage<T = Record<string, unknown>> {
  items: T[];
  nextCursor?: string;
  warnings: ListWarning[];
}

type Entry = Record<string, unknown>;
type Issue = { path: Array<string | number>; message: string };

const ENTRY_KEY = { tools: 'tool', prompts: 'prompt', resources: 'resource' } as const;
/** What identifies an entry: without it the entry cannot be addressed and is left out. */
const ESSENTIAL: Record<ListKind, string[]> = { tools: ['name', 'inputSchema'], prompts: ['name'], resources: ['uri'] };
const ENTRY_SCHEMA = { tools: specTypeSchemas.Tool, prompts: specTypeSchemas.Prompt, resources: specTypeSchemas.Resource };

export function isPlainObject(v: unknown): v is Entry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * One page, read leniently. `taken` holds the identifiers listed on earlier pages, so a name
 * repeated across pages is caught too. A page without its array cannot be read at all: an error.
 */
export function readListLeniently(kind: ListKind, raw: unknown, taken: Set<string> = new Set()): LenientPage {
  if (!isPlainObject(raw) || !Array.isArray(raw[kind])) {
    const got = isPlainObject(raw)
      ? `an object with ${
          Object.keys(raw)
            .map((k) => `"${k}"`)
            .join(', ') || 'no keys'
        }`
      : describe(raw);
    throw new McpNodeError(`the ${kind}/list answer has no "${kind}" array (got ${got}); the server's answer cannot be read`, `bad ${kind}/list`, 'BAD_RESULT');
  }
  const warnings: ListWarning[] = [];
  const items: Entry[] = [];
  (raw[kind] as unknown[]).forEach((value, index) => {
    const entry = readEntry(kind, value, `${kind}[${index}]`, taken, warnings);
    if (entry) items.push(entry);
  });
  return { items, nextCursor: readCursor(kind, raw.nextCursor, warnings), warnings };
}

function readEntry(kind: ListKind, value: unknown, where: string, taken: Set<string>, warnings: ListWarning[]): Entry | undefined {
  const idKey = kind === 'resources' ? 'uri' : 'name';
  const label = isPlainObject(value) && typeof value[idKey] === 'string' && value[idKey] ? (value[idKey] as string) : where;
  const warn = (path: string, message: string) => warnings.push({ [ENTRY_KEY[kind]]: label, path, message });
  if (!isPlainObject(value)) {
    warn('', `is ${describe(value)}, not an object; left out`);
    return undefined;
  }
  const id = value[idKey];
  if (typeof id !== 'string' || !id) {
    warn(idKey, `has no ${idKey} (got ${describe(id)}); it cannot be called, left out`);
    return undefined;
  }
  if (taken.has(id)) {
    warn(idKey, `the ${idKey} "${id}" is already taken by an earlier entry; only the first is kept`);
    return undefined;
  }
  const entry = structuredClone(value);
  const repaired = kind === 'tools' ? repairTool(entry, warn) : kind === 'prompts' ? repairPrompt(entry, warn) : repairResource(entry, warn);
  if (!repaired || !dropInvalidParts(kind, entry, warn)) return undefined;
  taken.add(id);
  return entry;
}

type Warn = (path: string, message: string) => void;

function repairCommon(entry: Entry, warn: Warn): void {
  for (const key of ['description', 'title']) {
    if (entry[key] === null) {
      delete entry[key];
      warn(key, `is null; read as no ${key}`);
    }
  }
}

function repairTool(tool: Entry, warn: Warn): boolean {
  repairCommon(tool, warn);
  if (tool.inputSchema === undefined) {
    tool.inputSchema = { type: 'object' };
    warn('inputSchema', 'is missing; read as a tool without parameters');
    return true;
  }
  const schema = tool.inputSchema;
  if (!isPlainObject(schema)) {
    warn('inputSchema', `is ${describe(schema)}, not a schema object; the parameters cannot be read, left out`);
    return false;
  }
  if (schema.type === undefined) {
    schema.type = 'object';
    warn('inputSchema.type', 'is missing at the root; read as "object"');
  } else if (Array.isArray(schema.type) && schema.type.includes('object')) {
    warn('inputSchema.type', `is ${JSON.stringify(schema.type)}; read as "object" (tool arguments are always an object)`);
    schema.type = 'object';
  } else if (schema.type !== 'object') {
    warn('inputSchema.type', `is ${JSON.stringify(schema.type)}, but tool arguments are an object; the tool cannot be called, left out`);
    return false;
  }
  if (schema.properties !== undefined && !isPlainObject(schema.properties)) {
    warn('inputSchema.properties', `is ${describe(schema.properties)}, not an object; the parameters cannot be read, left out`);
    return false;
  }
  repairRequired(schema, warn);
  return true;
}

/** `required` naming properties that do not exist would make every call fail validation. */
function repairRequired(schema: Entry, warn: Warn): void {
  if (schema.required === undefined) return;
  if (!Array.isArray(schema.required)) {
    warn('inputSchema.required', `is ${describe(schema.required)}, not a list of names; dropped`);
    delete schema.required;
    return;
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const kept = schema.required.filter((n): n is string => typeof n === 'string' && Object.hasOwn(properties, n));
  const dropped = schema.required.filter((n) => !kept.includes(n as string));
  if (!dropped.length) return;
  warn(
    'inputSchema.required',
    `names ${dropped.map((n) => JSON.stringify(n)).join(', ')}, which ${dropped.length > 1 ? 'are' : 'is'} not among the properties; dropped from required`,
  );
  if (kept.length) schema.required = kept;
  else delete schema.required;
}

function repairPrompt(prompt: Entry, warn: Warn): boolean {
  repairCommon(prompt, warn);
  if (prompt.arguments === undefined || prompt.arguments === null) {
    if (prompt.arguments === null) warn('arguments', 'is null; read as no arguments');
    delete prompt.arguments;
    return true;
  }
  if (!Array.isArray(prompt.arguments)) {
    warn('arguments', `is ${describe(prompt.arguments)}, not a list; the arguments cannot be read, left out`);
    return false;
  }
  const args = prompt.arguments as unknown[];
  prompt.arguments = args.filter((a, i) => {
    if (isPlainObject(a) && typeof a.name === 'string' && a.name) {
      if (a.description === null) delete a.description;
      return true;
    }
    warn(`arguments[${i}]`, 'has no name; left out of the arguments');
    return false;
  });
  return true;
}

function repairResource(resource: Entry, warn: Warn): boolean {
  repairCommon(resource, warn);
  if (typeof resource.name !== 'string' || !resource.name) {
    warn('name', `is ${describe(resource.name)}; read as the uri`);
    resource.name = resource.uri;
  }
  return true;
}

/**
 * What the SDK's own per-entry schema still rejects: a deviation in an essential key leaves the
 * entry out, anything else (annotations, icons, outputSchema, _meta …) is optional and dropped.
 */
function dropInvalidParts(kind: ListKind, entry: Entry, warn: Warn): boolean {
  for (let round = 0; round < 10; round++) {
    const issues = validate(ENTRY_SCHEMA[kind], entry);
    if (!issues.length) return true;
    const dropped = new Set<string>();
    for (const issue of issues) {
      const [top, index, sub] = issue.path;
      const path = issue.path.join('.');
      if (dropped.has(String(top))) continue;
      if (ESSENTIAL[kind].includes(String(top))) {
        warn(path, `${issue.message}; the entry cannot be used, left out`);
        return false;
      }
      if (top === 'arguments' && typeof index === 'number' && Array.isArray(entry.arguments)) {
        const arg = entry.arguments[index] as Entry | undefined;
        if (arg && sub !== undefined && sub !== 'name') delete arg[String(sub)];
        else entry.arguments = (entry.arguments as unknown[]).filter((_, i) => i !== index);
        warn(path, `${issue.message}; dropped`);
        break; // indices moved: validate again
      }
      if (top === undefined || !(String(top) in entry)) return warnUnfixable(warn, path, issue.message);
      delete entry[String(top)];
      dropped.add(String(top));
      warn(String(top), `${issue.message}${issue.path.length > 1 ? ` (at ${path})` : ''}; dropped`);
    }
  }
  return false;
}

function warnUnfixable(warn: Warn, path: string, message: string): false {
  warn(path, `${message}; left out`);
  return false;
}

function readCursor(kind: ListKind, next: unknown, warnings: ListWarning[]): string | undefined {
  if (next === undefined || next === null || next === '') return undefined;
  if (typeof next === 'string') return next;
  if (typeof next === 'number' && Number.isFinite(next)) {
    warnings.push({ path: 'nextCursor', message: `is the number ${next}; read as the string "${next}"` });
    return String(next);
  }
  warnings.push({ path: 'nextCursor', message: `is ${describe(next)}, not a string; read as the last page of ${kind}` });
  return undefined;
}

/** Synchronous Standard Schema validation (the SDK's zod schemas never validate asynchronously). */
export function validate(schema: { '~standard': { validate(v: unknown): unknown } }, value: unknown): Issue[] {
  const outcome = schema['~standard'].validate(value) as { issues?: Array<{ path?: Array<unknown>; message: string }> };
  if (typeof (outcome as { then?: unknown }).then === 'function') throw new Error('asynchronous schema validation is not supported here');
  return (outcome.issues ?? []).map((i) => ({
    path: (i.path ?? []).map((p) => (typeof p === 'object' && p !== null ? (p as { key: string | number }).key : (p as string | number))),
    message: i.message,
  }));
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(shorten(v, 40))}`;
  if (typeof v === 'object') return 'an object';
  return v === undefined ? 'missing' : `the ${typeof v} ${String(v)}`;
}

/** One line for the log: `tool "x" inputSchema.type: is missing at the root; read as "object"`. */
export function formatWarning(w: ListWarning): string {
  const who =
    w.tool !== undefined
      ? `tool "${w.tool}"`
      : w.prompt !== undefined
        ? `prompt "${w.prompt}"`
        : w.resource !== undefined
          ? `resource "${w.resource}"`
          : 'answer';
  return `${who}${w.path ? ` ${w.path}` : ''}: ${w.message}`;
}
