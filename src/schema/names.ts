// Declared function names for LLM providers. Every provider has its own name rule (Gemini:
// `^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`, OpenAI/Anthropic: `^[a-zA-Z0-9_-]{1,64}$`); we use the strict
// intersection so one declared name works everywhere, and keep a map back to the MCP name.
import { createHash } from 'node:crypto';
import { setOwn } from './types';

export const DECLARED_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_DECLARED_NAME = 64;
const HASH_HEX = 8;

export interface DeclareNamesOptions {
  prefix?: string;
  /** Names no one may be declared as (they all get a hash suffix instead). */
  reserved?: ReadonlySet<string>;
}

function hashHex(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, HASH_HEX);
}

/** `<head>_<8 hex>` cut to fit 64 characters. */
function withHash(base: string, hashSource: string): string {
  const suffix = '_' + hashHex(hashSource);
  return base.slice(0, MAX_DECLARED_NAME - suffix.length) + suffix;
}

/** The name a tool gets before collisions are considered. */
function sanitizeName(name: string, prefix = ''): string {
  let out = (prefix + name).replace(/[^A-Za-z0-9_]/g, '_');
  if (out === '') out = '_';
  if (/^[0-9]/.test(out)) out = '_' + out;
  if (out.length > MAX_DECLARED_NAME) out = withHash(out, name);
  return out;
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Maps every MCP name to a declared name. The result depends only on the SET of names (not their
 * order): in a group that collides after sanitising, the name that needs no change keeps the plain
 * form (otherwise the smallest by code point does) and the others get a hash suffix of their own
 * original name, re-salted until unique.
 */
export function declaredNameMap(mcpToolNames: readonly string[], options: DeclareNamesOptions = {}): Map<string, string> {
  const prefix = options.prefix ?? '';
  const unique = [...new Set(mcpToolNames)].sort(byCodePoint);
  const groups = new Map<string, string[]>();
  for (const name of unique) {
    const base = sanitizeName(name, prefix);
    const group = groups.get(base);
    if (group) group.push(name);
    else groups.set(base, [name]);
  }
  const reserved = options.reserved ?? new Set<string>();
  const taken = new Set<string>(reserved);
  const result = new Map<string, string>();
  const losers: Array<[string, string]> = [];
  for (const [base, group] of groups) {
    if (reserved.has(base)) {
      for (const n of group) losers.push([n, base]);
      continue;
    }
    const keeper = group.find((n) => prefix + n === base) ?? group[0];
    result.set(keeper, base);
    taken.add(base);
    for (const n of group) if (n !== keeper) losers.push([n, base]);
  }
  losers.sort((a, b) => byCodePoint(a[0], b[0]));
  for (const [name, base] of losers) {
    let salt = 0;
    let candidate = withHash(base, name);
    while (taken.has(candidate)) candidate = withHash(base, `${name}#${++salt}`);
    taken.add(candidate);
    result.set(name, candidate);
  }
  return result;
}

/** declared name -> MCP name. */
export function declareNames(mcpToolNames: string[], options: DeclareNamesOptions = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [mcp, declared] of declaredNameMap(mcpToolNames, options)) setOwn(out, declared, mcp);
  return out;
}
