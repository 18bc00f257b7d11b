// Checks compiled declarations against what each provider documents it accepts, so a flow (and our
// tests) learn about a 400 before the provider sends one. Sources: https://ai.google.dev/api/caching#Schema
// and https://ai.google.dev/gemini-api/docs/function-calling (Gemini Schema fields, enum/format/items/required rules, name rule); Anthropic and OpenAI reject
// anyOf/oneOf/allOf at the top of a tool schema (anthropics/claude-code#40075, anomalyco/opencode#35516)
// and take names matching ^[a-zA-Z0-9_-]{1,64}$.
import { MAX_SCHEMA_DEPTH, SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from './clean-json-schema';
import { GEMINI_FORMATS } from './gemini-schema';
import { metaSchemaProblems } from './json-schema-dialect';
import { resolvePointer } from './json-pointer';
import { childPath, indexPath } from './json-path';
import { DECLARED_NAME_PATTERN } from './names';
import { hasOwn, isObject, type JsonObject } from './types';

/**
 * gemini: the Gemini API's generateContent (declarations with `parametersJsonSchema` or `parameters`);
 * gemini-schema: consumers that take only `parameters` (Live API, some SDKs); openai; anthropic.
 */
export type ValidationTarget = 'gemini' | 'gemini-schema' | 'openai' | 'anthropic';

/** Fields of Gemini's v1beta `Schema` message (gemini-api.md §3.1); anything else is "Unknown name … Cannot find field". */
const GEMINI_SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'propertyOrdering',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
]);
const GEMINI_TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);
const GEMINI_DECLARATION_FIELDS = new Set(['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema', 'behavior']);
const INTEGER_FIELDS = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'];
/** OpenAI and Anthropic tool names. */
const PROVIDER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const ROOT_COMBINATORS = ['anyOf', 'oneOf', 'allOf'];

export function validateDeclarations(payload: unknown, target: ValidationTarget): string[] {
  const problems: string[] = [];
  if (target === 'gemini' || target === 'gemini-schema') {
    const tools = Array.isArray(payload) ? payload : [payload];
    const names = new Set<string>();
    tools.forEach((tool, t) => {
      const at = Array.isArray(payload) ? `tools[${t}]` : 'tool';
      if (!isObject(tool) || !Array.isArray(tool.functionDeclarations)) {
        problems.push(`${at}: must be a Tool object with a functionDeclarations array`);
        return;
      }
      tool.functionDeclarations.forEach((decl, i) => checkGeminiDeclaration(decl, `${at}.functionDeclarations[${i}]`, target, names, problems));
    });
    return problems;
  }
  if (!Array.isArray(payload)) return [`${target} tools must be an array`];
  const names = new Set<string>();
  payload.forEach((entry, i) => {
    const at = `tools[${i}]`;
    if (!isObject(entry)) {
      problems.push(`${at}: must be an object`);
      return;
    }
    if (target === 'openai') {
      if (entry.type !== 'function') problems.push(`${at}.type: must be "function"`);
      if (!isObject(entry.function)) {
        problems.push(`${at}.function: must be an object`);
        return;
      }
      unknownKeys(entry, ['type', 'function'], at, problems);
      checkProviderDeclaration(entry.function, `${at}.function`, 'parameters', ['name', 'description', 'parameters', 'strict'], names, problems);
    } else {
      checkProviderDeclaration(entry, at, 'input_schema', ['name', 'description', 'input_schema', 'cache_control', 'type'], names, problems);
    }
  });
  return problems;
}

function unknownKeys(obj: JsonObject, allowed: string[], at: string, problems: string[]): void {
  for (const key of Object.keys(obj)) if (!allowed.includes(key)) problems.push(`${at}: unknown field "${key}"`);
}

function checkName(name: unknown, at: string, pattern: RegExp, names: Set<string>, problems: string[]): void {
  if (typeof name !== 'string') {
    problems.push(`${at}.name: must be a string`);
    return;
  }
  if (!pattern.test(name)) problems.push(`${at}.name: "${name}" does not match ${pattern.source}`);
  if (names.has(name)) problems.push(`${at}.name: duplicate function name "${name}"`);
  names.add(name);
}

function checkDescription(decl: JsonObject, at: string, problems: string[]): void {
  if (decl.description !== undefined && typeof decl.description !== 'string') problems.push(`${at}.description: must be a string`);
}

function checkGeminiDeclaration(decl: unknown, at: string, target: ValidationTarget, names: Set<string>, problems: string[]): void {
  if (!isObject(decl)) {
    problems.push(`${at}: must be an object`);
    return;
  }
  // Gemini's own rule also allows . : - (gemini-api.md §3.3), but older versions reject them: we hold
  // declarations to the portable rule every provider accepts.
  checkName(decl.name, at, DECLARED_NAME_PATTERN, names, problems);
  checkDescription(decl, at, problems);
  for (const key of Object.keys(decl)) if (!GEMINI_DECLARATION_FIELDS.has(key)) problems.push(`${at}: unknown field "${key}"`);
  if (decl.parameters !== undefined && decl.parametersJsonSchema !== undefined) {
    problems.push(`${at}: parameters and parametersJsonSchema are mutually exclusive`);
  }
  // The Gemini API takes either form; the Live API and some SDKs take only `parameters` (gemini-schema).
  if (target === 'gemini-schema' && decl.parametersJsonSchema !== undefined) {
    problems.push(`${at}: gemini-schema declarations use parameters, not parametersJsonSchema`);
  }
  if (decl.parameters !== undefined) {
    if (!isObject(decl.parameters) || decl.parameters.type !== 'OBJECT') problems.push(`${at}.parameters: must be a Schema of type OBJECT`);
    checkGeminiSchema(decl.parameters, `${at}.parameters`, problems);
  }
  if (target === 'gemini' && decl.parametersJsonSchema !== undefined) {
    checkJsonSchemaParameters(decl.parametersJsonSchema, `${at}.parametersJsonSchema`, problems, false);
    vendorKeys(decl.parametersJsonSchema, `${at}.parametersJsonSchema`, problems);
  }
}

function checkProviderDeclaration(decl: JsonObject, at: string, schemaKey: string, allowed: string[], names: Set<string>, problems: string[]): void {
  checkName(decl.name, at, PROVIDER_NAME_PATTERN, names, problems);
  checkDescription(decl, at, problems);
  unknownKeys(decl, allowed, at, problems);
  checkJsonSchemaParameters(decl[schemaKey], `${at}.${schemaKey}`, problems, true);
}

function checkJsonSchemaParameters(schema: unknown, at: string, problems: string[], noRootCombinators: boolean): void {
  if (!isObject(schema)) {
    problems.push(`${at}: schema at top-level must be an object`);
    return;
  }
  if (schema.type !== 'object') problems.push(`${at}.type: must be "object"`);
  if (!isObject(schema.properties)) problems.push(`${at}.properties: must be present (an object)`);
  if (noRootCombinators) {
    for (const key of ROOT_COMBINATORS) if (key in schema) problems.push(`${at}: ${key} is not allowed at the top level`);
  }
  let deepest = '';
  forEachSchema(schema, at, (_node, path, depth) => {
    if (depth > 2 * MAX_SCHEMA_DEPTH && !deepest) deepest = path;
  });
  if (deepest) {
    problems.push(`${deepest}: nested deeper than ${2 * MAX_SCHEMA_DEPTH} levels`);
    return;
  }
  for (const p of metaSchemaProblems(schema)) problems.push(`${at}: not valid JSON Schema: ${p}`);
  unresolvedRefs(schema, at, problems);
}

function unresolvedRefs(root: JsonObject, at: string, problems: string[]): void {
  forEachSchema(root, at, (node, path) => {
    if (typeof node.$ref === 'string' && resolvePointer(root, node.$ref) === undefined)
      problems.push(`${path}.$ref: "${node.$ref}" does not resolve inside the schema`);
  });
}

/**
 * Vendor keywords: Gemini rejected `x-mcp-header` (zed#62539). Only schema positions are searched:
 * a property NAMED x-… or an x- key inside a default/enum value is data, not a keyword.
 */
function vendorKeys(root: unknown, at: string, problems: string[]): void {
  forEachSchema(root, at, (node, path) => {
    for (const k of Object.keys(node)) if (k.startsWith('x-')) problems.push(`${childPath(path, k)}: vendor keyword`);
  });
}

/** Visits every schema object in a JSON Schema (not the data inside enum/default/unknown keywords). */
function forEachSchema(node: unknown, at: string, visit: (schema: JsonObject, path: string, depth: number) => void, depth = 0): void {
  if (!isObject(node) || depth > 2 * MAX_SCHEMA_DEPTH + 1) return;
  visit(node, at, depth);
  for (const [k, v] of Object.entries(node)) {
    const keyPath = childPath(at, k);
    if (SCHEMA_MAP_KEYWORDS.has(k) || k === '$defs' || k === 'definitions') {
      if (isObject(v)) for (const [name, sub] of Object.entries(v)) forEachSchema(sub, childPath(keyPath, name), visit, depth + 1);
    } else if (SCHEMA_ARRAY_KEYWORDS.has(k) && Array.isArray(v)) {
      v.forEach((sub, i) => forEachSchema(sub, indexPath(keyPath, i), visit, depth + 1));
    } else if (SCHEMA_KEYWORDS.has(k)) {
      forEachSchema(v, keyPath, visit, depth + 1);
    }
  }
}

function isIntegerLike(v: unknown): boolean {
  return (typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'string' && /^[0-9]+$/.test(v));
}

/** Gemini's OpenAPI-subset Schema (gemini-api.md §3.1 and the 400s listed there). */
function checkGeminiSchema(schema: unknown, at: string, problems: string[], depth = 0): void {
  if (!isObject(schema)) {
    problems.push(`${at}: Invalid value, must be a Schema object`);
    return;
  }
  if (depth > 2 * MAX_SCHEMA_DEPTH) {
    problems.push(`${at}: nested deeper than ${2 * MAX_SCHEMA_DEPTH} levels`);
    return;
  }
  for (const key of Object.keys(schema)) {
    if (!GEMINI_SCHEMA_FIELDS.has(key)) problems.push(`${at}: Unknown name "${key}": Cannot find field`);
  }
  const type = schema.type;
  if (Array.isArray(type)) problems.push(`${at}.type: Proto field is not repeating, cannot start list`);
  else if (type !== undefined && (typeof type !== 'string' || !GEMINI_TYPES.has(type))) problems.push(`${at}.type: invalid value ${JSON.stringify(type)}`);
  if (type === undefined && !Array.isArray(schema.anyOf)) problems.push(`${at}.type: must be specified`);
  for (const key of ['title', 'description', 'pattern'] as const) {
    if (schema[key] !== undefined && typeof schema[key] !== 'string') problems.push(`${at}.${key}: must be a string`);
  }
  if (schema.nullable !== undefined && typeof schema.nullable !== 'boolean') problems.push(`${at}.nullable: must be a boolean`);
  for (const key of INTEGER_FIELDS) {
    if (schema[key] !== undefined && !isIntegerLike(schema[key])) problems.push(`${at}.${key}: must be a non-negative integer`);
  }
  for (const key of ['minimum', 'maximum'] as const) {
    if (schema[key] !== undefined && typeof schema[key] !== 'number') problems.push(`${at}.${key}: must be a number`);
  }
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || !schema.enum.every((v) => typeof v === 'string')) problems.push(`${at}.enum: values must be strings`);
    if (type !== 'STRING') problems.push(`${at}.enum: enum is only allowed for STRING type`);
  }
  if (schema.format !== undefined) {
    const allowed = typeof type === 'string' ? (GEMINI_FORMATS[type] ?? []) : [];
    if (typeof schema.format !== 'string' || !allowed.includes(schema.format)) {
      problems.push(`${at}.format: "${String(schema.format)}" is not supported for ${String(type)} type (allowed: ${allowed.join(', ') || 'none'})`);
    }
  }
  if (type === 'ARRAY' && schema.items === undefined) problems.push(`${at}.items: missing field`);
  if (schema.items !== undefined) checkGeminiSchema(schema.items, `${at}.items`, problems, depth + 1);
  if (schema.properties !== undefined) {
    if (!isObject(schema.properties)) problems.push(`${at}.properties: must be an object`);
    else {
      for (const [name, sub] of Object.entries(schema.properties)) {
        if (!DECLARED_NAME_PATTERN.test(name))
          problems.push(
            `${at}.properties["${name}"]: parameter names must start with a letter or an underscore and contain only a-z, A-Z, 0-9 or underscores, at most 64`,
          );
        checkGeminiSchema(sub, `${childPath(at + '.properties', name)}`, problems, depth + 1);
      }
    }
  }
  if (schema.required !== undefined) {
    const props = isObject(schema.properties) ? schema.properties : {};
    if (!Array.isArray(schema.required)) problems.push(`${at}.required: must be an array of strings`);
    else {
      const missing = schema.required.filter((r) => typeof r !== 'string' || !hasOwn(props, r));
      if (missing.length) problems.push(`${at}.required: required fields ${JSON.stringify(missing)} are not defined in the schema properties`);
    }
  }
  if (schema.propertyOrdering !== undefined) {
    const props = isObject(schema.properties) ? schema.properties : {};
    if (!Array.isArray(schema.propertyOrdering) || !schema.propertyOrdering.every((n) => typeof n === 'string' && hasOwn(props, n))) {
      problems.push(`${at}.propertyOrdering: must list declared properties`);
    }
  }
  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) problems.push(`${at}.anyOf: must be a non-empty array of Schemas`);
    else schema.anyOf.forEach((sub, i) => checkGeminiSchema(sub, `${at}.anyOf[${i}]`, problems, depth + 1));
  }
}
