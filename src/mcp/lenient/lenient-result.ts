// Reads a tools/call result the SDK's schema would reject (an unknown content type, a text block
// without `text`, structuredContent that is not an object …) as far as it can be read: readable
// blocks are kept or turned into text, unreadable ones are left out, each with a warning. The
// server's raw answer stays available through `leniencyOf(result)` for msg.mcp.result.
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { McpNodeError } from '../../errors';
import type { CallToolResult } from '../protocol/sdk';
import { describe, isPlainObject, validate, type ListWarning } from './lenient-list';

export interface Leniency {
  /** The result exactly as the server sent it, when it had to be repaired to be read. */
  raw?: unknown;
  warnings: ListWarning[];
}

export interface ResultReadOptions {
  /** 2026-07-28 lets structuredContent be any JSON value; 2025 revisions want an object. */
  structuredAnyJson?: boolean;
}

const leniencies = new WeakMap<object, Leniency>();

/** The raw answer and warnings of a result that needed repair; undefined for a clean result. */
export function leniencyOf(result: object): Leniency | undefined {
  return leniencies.get(result);
}

export function recordLeniency(result: object, leniency: Leniency): void {
  if (leniency.warnings.length) leniencies.set(result, leniency);
}

/** A repaired copy of `raw` that the SDK's CallToolResult schema accepts, plus what was changed. */
export function readCallResultLeniently(tool: string, raw: unknown, options: ResultReadOptions = {}): { result: CallToolResult; warnings: ListWarning[] } {
  // The common case costs one schema check and no copy. (The SDK's neutral CallToolResult allows any
  // structuredContent; the 2025 wire schema wants an object, so that is checked here too.)
  if (isPlainObject(raw) && structuredContentFits(raw.structuredContent, options) && !validate(specTypeSchemas.CallToolResult, raw).length) {
    return { result: raw as CallToolResult, warnings: [] };
  }
  const warnings: ListWarning[] = [];
  const warn = (path: string, message: string) => warnings.push({ tool, path, message });
  const result = asResultObject(tool, raw, warn);
  result.content = readContent(result, warn);
  readStructuredContent(result, warn, options);
  readIsError(result, warn);
  for (const issue of validate(specTypeSchemas.CallToolResult, result)) {
    const top = String(issue.path[0] ?? '');
    if (!top || top === 'content' || !(top in result)) continue;
    delete result[top];
    warn(issue.path.join('.'), `${issue.message}; dropped`);
  }
  return { result: result as CallToolResult, warnings };
}

function structuredContentFits(sc: unknown, options: ResultReadOptions): boolean {
  return sc === undefined || isPlainObject(sc) || (options.structuredAnyJson === true && sc !== null);
}

function asResultObject(tool: string, raw: unknown, warn: (p: string, m: string) => void): Record<string, unknown> {
  if (isPlainObject(raw)) return structuredClone(raw);
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') {
    warn('', `the result is ${describe(raw)}, not an object; read as one text block`);
    return { content: [{ type: 'text', text: String(raw) }] };
  }
  if (Array.isArray(raw)) {
    warn('', 'the result is an array, not an object; read as its content blocks');
    return { content: structuredClone(raw) };
  }
  throw new McpNodeError(
    `the server answered tools/call "${tool}" with ${describe(raw)} instead of a result; nothing can be read from it`,
    'bad result',
    'BAD_RESULT',
  );
}

function readContent(result: Record<string, unknown>, warn: (p: string, m: string) => void): unknown[] {
  const content = result.content;
  if (content === undefined || content === null) {
    if (result.structuredContent === undefined) warn('content', `is ${describe(content)}; read as no content`);
    return [];
  }
  let list = content as unknown[];
  if (!Array.isArray(content)) {
    warn('content', `is ${describe(content)}, not a list; read as one block`);
    list = [typeof content === 'string' ? { type: 'text', text: content } : content];
  }
  const blocks: unknown[] = [];
  list.forEach((block, i) => {
    const read = readBlock(block, `content[${i}]`, warn);
    if (read) blocks.push(read);
  });
  return blocks;
}

function readBlock(block: unknown, path: string, warn: (p: string, m: string) => void): unknown {
  if (!validate(specTypeSchemas.ContentBlock, block).length) return block;
  if (!isPlainObject(block)) {
    warn(path, `is ${describe(block)}, not a content block; left out of msg.payload`);
    return undefined;
  }
  const type = JSON.stringify(block.type);
  if (typeof block.text === 'string' || (block.type === 'text' && (typeof block.text === 'number' || typeof block.text === 'boolean'))) {
    const { annotations, _meta } = block;
    const text = { type: 'text', text: String(block.text), ...(annotations !== undefined ? { annotations } : {}), ...(_meta !== undefined ? { _meta } : {}) };
    if (!validate(specTypeSchemas.ContentBlock, text).length) {
      warn(path, block.type === 'text' ? `has a ${typeof block.text} text; read as a string` : `has the unknown type ${type} but a text; read as text`);
      return text;
    }
  }
  // A known block whose optional extras are malformed (annotations, _meta) is still readable without them.
  const bare = { ...block };
  delete bare.annotations;
  delete bare._meta;
  if (!validate(specTypeSchemas.ContentBlock, bare).length) {
    warn(path, 'has malformed annotations or _meta; those were dropped');
    return bare;
  }
  const why =
    block.type === 'text'
      ? 'is a text block without text'
      : KNOWN_TYPES.has(String(block.type))
        ? `is a ${type} block missing required fields`
        : `has the unknown content type ${type}`;
  warn(path, `${why}; left out of msg.payload (the raw result is in msg.mcp.result)`);
  return undefined;
}

const KNOWN_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

function readStructuredContent(result: Record<string, unknown>, warn: (p: string, m: string) => void, options: ResultReadOptions): void {
  const sc = result.structuredContent;
  if (sc === undefined || isPlainObject(sc)) return;
  if (sc === null) {
    delete result.structuredContent;
    warn('structuredContent', 'is null; read as no structured content');
  } else if (!options.structuredAnyJson) {
    // The SDK's own legacy wrap for a non-object value (SEP-2106): { result: value }.
    result.structuredContent = { result: sc };
    warn('structuredContent', `is ${describe(sc)}, not an object; read as {"result": …}`);
  }
}

function readIsError(result: Record<string, unknown>, warn: (p: string, m: string) => void): void {
  const v = result.isError;
  if (v === undefined || typeof v === 'boolean') return;
  if (v === 'true' || v === 'false' || v === 1 || v === 0) {
    result.isError = v === 'true' || v === 1;
    warn('isError', `is ${describe(v)}; read as ${String(result.isError)}`);
    return;
  }
  delete result.isError;
  warn('isError', `is ${describe(v)}; ignored (read as not an error)`);
}
