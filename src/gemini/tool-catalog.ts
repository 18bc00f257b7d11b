// Everything the model may call in one request: the tools of every configured mcp-server (filtered,
// prefixed when there is more than one server) plus `msg.tools`, compiled into one Gemini Tool by the
// schema compiler, and a route per declared name back to (server, MCP tool).
import { compileTools } from '../schema';
import { filterTools } from '../mcp/tool-names';
import { formatWarning } from '../mcp/lenient/lenient-list';
import type { ListToolsResult, RequestContext, Tool, ToolProvider } from '../mcp/call/tool-provider';
import type { FunctionDeclaration, ToolCatalog, ToolRoute } from './types';
import type { ServerRow } from '../mcp/settings/server-row';

export type { ServerRow };

export interface ServerSource {
  provider: ToolProvider;
  include?: string[];
  exclude?: string[];
  /** Blank: none for a single server, the server's name otherwise. */
  prefix?: string;
  context?: RequestContext;
}

/** `msg.tools` as mcp-list-tools produces it: Gemini Tool(s) plus the `msg.mcp` that came with them. */
export interface MessageTools {
  tools: unknown;
  names?: Record<string, string>;
  server?: { id?: string; name?: string };
  raw?: Tool[];
  provider?: ToolProvider;
}

/** A short name-safe prefix from a server name: "Home Assistant" → "home_assistant_". */
export function defaultPrefix(serverName: string): string {
  const base = serverName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 20);
  return (base || 'server') + '_';
}

/** One server's tools/list, or why it could not be listed. */
export type ListOutcome = { list: ListToolsResult } | { error: unknown };

/** Lists every source once, in parallel; a server that is down gives its error, not a rejection. */
export function listSources(sources: ServerSource[]): Promise<ListOutcome[]> {
  return Promise.all(
    sources.map((s) =>
      s.provider.listTools({ context: s.context }).then(
        (list) => ({ list }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
}

export async function buildCatalog(sources: ServerSource[], extra: MessageTools[] = []): Promise<ToolCatalog> {
  const settled = await listSources(sources);
  // One server down must not silence the others: the request runs with the tools that could be
  // listed, and the missing server is reported. With nothing left to offer, it is an error.
  const failures = settled.filter((r): r is { error: unknown } => 'error' in r);
  if (failures.length && failures.length === sources.length && extra.length === 0) throw failures[0].error;
  return assembleCatalog(sources, settled, extra);
}

/** The catalog from lists already fetched (`settled[i]` belongs to `sources[i]`). */
export function assembleCatalog(sources: ServerSource[], settled: ListOutcome[], extra: MessageTools[] = []): ToolCatalog {
  const catalog: ToolCatalog = { declarations: [], routes: new Map(), warnings: [], unavailable: [], bySource: [] };
  const usedPrefixes = new Set<string>();
  sources.forEach((source, i) => {
    const outcome = settled[i];
    if ('error' in outcome) {
      const who = source.provider.identity(source.context);
      const error = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      catalog.unavailable.push({ server: who.name || who.id, error });
      catalog.bySource!.push({ server: who.name || who.id, error });
      return;
    }
    const { list } = outcome;
    const identity = list.server;
    const serverName = identity.name || identity.id;
    let prefix = source.prefix ?? '';
    if (!prefix && sources.length > 1) {
      prefix = defaultPrefix(serverName);
      for (let n = 2; usedPrefixes.has(prefix); n++) prefix = defaultPrefix(serverName).replace(/_$/, `${n}_`);
    }
    usedPrefixes.add(prefix);
    const tools = filterTools(list.tools, source.include ?? [], source.exclude ?? []);
    const compiled = compileCached(source.provider, tools, prefix);
    for (const w of list.warnings ?? []) catalog.warnings.push(`${serverName}: ${formatWarning(w)}`);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const w of compiled.warnings as Array<{ tool?: string; message?: string } | string>) {
      catalog.warnings.push(typeof w === 'string' ? w : `${serverName}: ${w.tool ?? ''} ${w.message ?? ''}`.trim());
    }
    const declarations = declarationsOf(compiled.payload);
    catalog.bySource!.push({ server: serverName, total: list.tools.length, functions: declarations.map((d) => d.name ?? '') });
    add(catalog, declarations, (declared) => {
      const mcpName = compiled.names[declared] ?? declared;
      return {
        declaredName: declared,
        server: serverName,
        serverId: identity.id,
        tool: mcpName,
        definition: byName.get(mcpName),
        provider: source.provider,
        context: source.context,
      };
    });
  });
  for (const m of extra) {
    const serverName = m.server?.name || m.server?.id || 'msg.tools';
    const rawByName = new Map((m.raw ?? []).map((t) => [t.name, t]));
    add(catalog, declarationsOf(m.tools), (declared) => {
      const mcpName = m.names?.[declared] ?? declared;
      return {
        declaredName: declared,
        server: serverName,
        serverId: m.server?.id,
        tool: mcpName,
        definition: rawByName.get(mcpName),
        provider: m.provider,
      };
    });
  }
  return catalog;
}

interface CacheEntry {
  tools: Tool[];
  prefix: string;
  compiled: ReturnType<typeof compileTools>;
}

// Providers cache their tool lists (same Tool objects until the list changes), so the compiled
// declarations of the last request can be reused as long as the filtered tools are the same objects.
const compiledByProvider = new WeakMap<ToolProvider, CacheEntry>();

function compileCached(provider: ToolProvider, tools: Tool[], prefix: string): ReturnType<typeof compileTools> {
  const hit = compiledByProvider.get(provider);
  if (hit && hit.prefix === prefix && hit.tools.length === tools.length && hit.tools.every((t, i) => t === tools[i])) return hit.compiled;
  const compiled = compileTools(tools, 'gemini', { prefix });
  compiledByProvider.set(provider, { tools, prefix, compiled });
  return compiled;
}

/** Function declarations from a Tool, a Tool[] or a bare declaration array. */
export function declarationsOf(tools: unknown): FunctionDeclaration[] {
  const list = Array.isArray(tools) ? tools : tools ? [tools] : [];
  const out: FunctionDeclaration[] = [];
  for (const t of list) {
    const declared = (t as { functionDeclarations?: unknown } | null)?.functionDeclarations;
    if (Array.isArray(declared)) out.push(...(declared as FunctionDeclaration[]));
    else if (t && typeof (t as { name?: unknown }).name === 'string') out.push(t as FunctionDeclaration);
  }
  return out;
}

function add(catalog: ToolCatalog, declarations: FunctionDeclaration[], route: (declared: string) => ToolRoute): void {
  for (const d of declarations) {
    const name = d.name ?? '';
    if (catalog.routes.has(name)) {
      catalog.warnings.push(`Duplicate function name ${name}: kept the one from ${catalog.routes.get(name)!.server}`);
      continue;
    }
    catalog.routes.set(name, route(name));
    catalog.declarations.push(d);
  }
}

/**
 * Calls `update` with a fresh catalog after any server of the conversation is ready again (its
 * session refreshes the tool list on list_changed, a device joins …); LiveSession sends it only when
 * the declarations differ. A burst of changes gives one rebuild.
 */
export function watchServerTools(sources: ServerSource[], update: (catalog: ToolCatalog) => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const rebuild = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void buildCatalog(sources).then(update, () => undefined), 200);
    timer.unref?.();
  };
  const stops = sources.map((s) => s.provider.onStateChange((state) => state.kind === 'ready' && rebuild()));
  return () => {
    clearTimeout(timer);
    for (const stop of stops) stop();
  };
}
