// Paged prompts/resources lists read leniently: servers in the wild send items the SDK's strict
// result schemas reject (a prompt argument without `required`, `nextCursor: null`, a resource
// without `name`), and one odd item must not hide the whole list. We take each page as sent, keep
// the objects that have the one field that identifies them, and leave the paging (repeated names,
// a repeated cursor, the page limit) to the one pager, listAllPages.
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { listAllPages, type PagedKind } from './list-all-tools';
import type { LenientPage } from './lenient-list';

/** A result "schema" that accepts any JSON object as is: the caller picks what it needs. */
export const anyObjectResult: StandardSchemaV1<Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'node-red-contrib-mcp-gemini',
    validate: (value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'the result is not a JSON object' }] },
  },
};

export type RawPageFetcher = (cursor: string | undefined) => Promise<Record<string, unknown>>;
export type LenientKind = Exclude<PagedKind, 'tools'>;

const ID_FIELD: Record<LenientKind, string> = { prompts: 'name', resources: 'uri', resourceTemplates: 'uriTemplate' };

/** The page's objects whose identifying field is a non-empty string; a null or non-string cursor ends the list. */
function identifiedItems(page: Record<string, unknown>, kind: LenientKind): LenientPage {
  const list = Array.isArray(page[kind]) ? (page[kind] as unknown[]) : [];
  const idField = ID_FIELD[kind];
  const items = list.filter(
    (item): item is Record<string, unknown> =>
      !!item && typeof item === 'object' && typeof (item as Record<string, unknown>)[idField] === 'string' && (item as Record<string, unknown>)[idField] !== '',
  );
  return { items, nextCursor: typeof page.nextCursor === 'string' ? page.nextCursor : undefined, warnings: [] };
}

/** Every identifiable item of `kind` across pages. */
export async function listAllLeniently<T>(fetchPage: RawPageFetcher, kind: LenientKind, where: string): Promise<{ items: T[]; pages: number }> {
  const { items, pages } = await listAllPages(kind, async (cursor) => identifiedItems(await fetchPage(cursor), kind), where);
  return { items: items as T[], pages };
}
