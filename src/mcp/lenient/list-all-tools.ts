// The one pager for tools/list, prompts/list, resources/list and resources/templates/list, used by
// MCP client sessions and by ESP32 devices alike. It follows `nextCursor` until the key is absent or
// empty, drops an entry whose name an earlier page already used (with a warning), and turns a server
// that never converges into an error naming which guard stopped it: a cursor seen before, or more
// than MAX_PAGES pages. We page ourselves (not the SDK's auto-aggregate) to count pages for
// msg.mcp.pages.
import { McpNodeError } from '../../errors';
import type { LenientPage, ListKind, ListWarning } from './lenient-list';
import type { Tool } from '../protocol/sdk';

export const MAX_PAGES = 1000;

/** One page, already read leniently (readListLeniently). */
export type PageFetcher<T = Record<string, unknown>> = (cursor: string | undefined) => Promise<LenientPage<T>>;

export interface ListedPages<T> {
  items: T[];
  pages: number;
  warnings: ListWarning[];
}

/** The lists that page: the three of lenient-list, and resources/templates/list. */
export type PagedKind = ListKind | 'resourceTemplates';
/** What identifies an entry (a repeat is dropped), and how a warning names it. */
const ID_KEY: Record<PagedKind, string> = { tools: 'name', prompts: 'name', resources: 'uri', resourceTemplates: 'uriTemplate' };
const ENTRY_KEY: Record<PagedKind, keyof ListWarning> = { tools: 'tool', prompts: 'prompt', resources: 'resource', resourceTemplates: 'resource' };

export async function listAllPages<T extends object>(kind: PagedKind, fetchPage: PageFetcher<T>, where: string): Promise<ListedPages<T>> {
  const items: T[] = [];
  const warnings: ListWarning[] = [];
  const idKey = ID_KEY[kind];
  const entryKey = ENTRY_KEY[kind];
  const taken = new Set<string>();
  const cursorPage = new Map<string, number>();
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await fetchPage(cursor);
    pages++;
    warnings.push(...page.warnings);
    for (const item of page.items) {
      const id = String((item as Record<string, unknown>)[idKey]);
      if (taken.has(id)) {
        warnings.push({ [entryKey]: id, path: idKey, message: `page ${pages} lists "${id}" again; only the first is kept` });
        continue;
      }
      taken.add(id);
      items.push(item);
    }
    const next = page.nextCursor;
    if (next === undefined || next === '') return { items, pages, warnings };
    const earlier = cursorPage.get(next);
    if (earlier !== undefined) {
      throw new McpNodeError(
        `${where} returned the cursor ${JSON.stringify(next)} twice while listing ${kind} (pages ${earlier} and ${pages}); its pagination loops, ask its maintainer to fix nextCursor`,
        'pagination loop',
        'PAGINATION_LOOP',
      );
    }
    if (pages >= MAX_PAGES) {
      throw new McpNodeError(
        `${where} still had more ${kind} after ${MAX_PAGES} pages (the limit; next cursor ${JSON.stringify(next)}); giving up, ask its maintainer to check nextCursor`,
        'too many pages',
        'PAGINATION_LIMIT',
      );
    }
    cursorPage.set(next, pages);
    cursor = next;
  }
}

export async function listAllTools(fetchPage: PageFetcher<Tool>, where: string): Promise<{ tools: Tool[]; pages: number; warnings: ListWarning[] }> {
  const { items, pages, warnings } = await listAllPages('tools', fetchPage, where);
  return { tools: items, pages, warnings };
}
