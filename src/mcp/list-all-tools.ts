// Walks `tools/list` pages until `nextCursor` is absent or empty. We page ourselves (not the SDK's
// auto-aggregate) to count pages for msg.mcp.pages and to turn a server that never converges into
// an error instead of a hang: a repeated cursor, or more than MAX_PAGES pages.
import type { Tool } from './sdk';
import { McpNodeError } from '../errors';

export const MAX_PAGES = 1000;

export type PageFetcher = (cursor: string | undefined) => Promise<{ tools: Tool[]; nextCursor?: string }>;

export async function listAllTools(fetchPage: PageFetcher, where: string): Promise<{ tools: Tool[]; pages: number }> {
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await fetchPage(cursor);
    pages++;
    tools.push(...(page.tools ?? []));
    const next = page.nextCursor;
    if (next === undefined || next === null || next === '') return { tools, pages };
    if (seen.has(next)) {
      throw new McpNodeError(
        `${where} returned the cursor ${JSON.stringify(next)} twice while listing tools (page ${pages}); the server's pagination loops`,
        'pagination loop',
        'PAGINATION_LOOP',
      );
    }
    if (pages >= MAX_PAGES) {
      throw new McpNodeError(`${where} sent more than ${MAX_PAGES} pages of tools; giving up`, 'too many pages', 'PAGINATION_LIMIT');
    }
    seen.add(next);
    cursor = next;
  }
}
