// Paged prompts/resources lists read leniently: servers in the wild send items the SDK's strict
// result schemas reject (a prompt argument without `required`, `nextCursor: null`, a resource
// without `name`), and one odd item must not hide the whole list. We take the result as sent,
// keep the objects that have the one field that identifies them, and page ourselves (repeated
// cursor or too many pages is an error, not a hang). Kept on its own so a shared lenient reader
// can replace it.
import { McpNodeError } from '../errors';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

export const MAX_LIST_PAGES = 1000;

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

/** Every item of `key` across pages, keeping objects whose `idField` is a non-empty string. */
export async function listAllLeniently<T>(fetchPage: RawPageFetcher, key: string, idField: string, where: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    const list = Array.isArray(page[key]) ? (page[key] as unknown[]) : [];
    for (const item of list) {
      if (item && typeof item === 'object' && typeof (item as Record<string, unknown>)[idField] === 'string' && (item as Record<string, unknown>)[idField] !== '') {
        items.push(item as T);
      }
    }
    const next = page.nextCursor;
    if (typeof next !== 'string' || next === '') return { items, pages };
    if (seen.has(next)) {
      throw new McpNodeError(`${where} returned the cursor ${JSON.stringify(next)} twice while listing ${key} (page ${pages}); the server's pagination loops`, 'pagination loop', 'PAGINATION_LOOP');
    }
    if (pages >= MAX_LIST_PAGES) throw new McpNodeError(`${where} sent more than ${MAX_LIST_PAGES} pages of ${key}; giving up`, 'too many pages', 'PAGINATION_LIMIT');
    seen.add(next);
    cursor = next;
  }
}
