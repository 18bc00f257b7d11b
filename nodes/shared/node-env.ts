// Node-RED's own environment lookup for `${VAR}` in settings: the node, its group, its tab, the
// global `env` (User Settings > Environment) and then the process environment, as core nodes resolve
// `env` typed inputs. Config nodes scoped to a tab see that tab's variables.
import type { EnvLookup } from '../../src/env-expand';
import { packageRoot, resolveStdioCommand } from '../../src/mcp/settings/module-specifier';
import type { McpServerSettings } from '../../src/mcp/settings/settings';
import { resolveOwnUrl } from '../../src/mcp/own-address';
import type { Node, RED } from './red-types';

export function nodeEnvLookup(RED: RED, node: Node): EnvLookup {
  return (name) => {
    const value: unknown = RED.util.getSetting(node, name); // undefined when nothing defines it
    return value === undefined || value === null ? undefined : String(value);
  };
}

/**
 * Stdio settings made independent of the working directory: `module:` specifiers resolved from the
 * user dir and this package, and NODE_RED_USER_DIR handed to the child so servers can keep their
 * data where the add-on persists it (/config).
 */
export function withStdioPaths(RED: RED, settings: McpServerSettings): McpServerSettings {
  if (settings.transport !== 'stdio') return settings;
  const userDir = RED.settings.userDir;
  const searchPaths = [userDir, packageRoot()].filter((p): p is string => !!p);
  const resolved = resolveStdioCommand(settings, searchPaths);
  return userDir ? { ...resolved, env: { NODE_RED_USER_DIR: userDir, ...resolved.env } } : resolved;
}

/** A server's raw settings with a URL that is only a path turned into this Node-RED's own address. */
export function withOwnAddress<T extends object>(RED: RED, raw: T): T {
  const given = (raw as { url?: unknown }).url;
  if (typeof given !== 'string') return raw;
  const s = RED.settings as { uiPort?: number; uiHost?: string; httpNodeRoot?: string | false; https?: unknown };
  const url = resolveOwnUrl(given.trim(), {
    port: Number(s.uiPort) || 1880,
    host: s.uiHost,
    nodeRoot: typeof s.httpNodeRoot === 'string' ? s.httpNodeRoot : '/',
    https: !!s.https,
  });
  return { ...raw, url };
}

/**
 * Of `names`, those defined more than once on the node's tab (Environment variables): Node-RED takes
 * one of the rows and ignores the other without a word, so a user who edits the other one sees no
 * effect ("a second MCP_TOKEN row leaves the endpoint at 401").
 */
export function definedTwiceOnTab(node: Node, names: string[]): string[] {
  const rows = (node as Node & { _flow?: { env?: Array<{ name?: string }> } })._flow?.env ?? [];
  return names.filter((name) => rows.filter((row) => row.name === name).length > 1);
}

/** The names of the `${VAR}` references in a text. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g)].map((m) => m[1]))];
}
