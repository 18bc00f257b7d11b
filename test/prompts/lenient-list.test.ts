// The lenient prompts/resources list reader: odd items from servers in the wild are skipped, not
// fatal; pagination ends on an absent, null or empty cursor; a looping cursor is an error.
import assert from 'node:assert/strict';
import { listAllLeniently } from '../../src/mcp/lenient/prompt-resource-list';
import { MAX_PAGES } from '../../src/mcp/lenient/list-all-tools';
import { McpNodeError } from '../../src/errors';
import { promptText, promptArguments } from '../../src/mcp/prompts-resources';

describe('lenient prompts/resources lists', () => {
  it('keeps items with their identifying field and skips the rest; nextCursor null ends the walk', async () => {
    const pages: Record<string, Record<string, unknown>> = {
      start: { prompts: [{ name: 'a', arguments: [{ name: 'x' }] }, { description: 'no name' }, 'junk', null], nextCursor: 'p2' },
      p2: { prompts: [{ name: '' }, { name: 'b' }], nextCursor: null },
    };
    const seen: Array<string | undefined> = [];
    const { items, pages: count } = await listAllLeniently<{ name: string }>(async (cursor) => (seen.push(cursor), pages[cursor ?? 'start']), 'prompts', 'srv');
    assert.deepEqual(
      items.map((p) => p.name),
      ['a', 'b'],
    );
    assert.equal(count, 2);
    assert.deepEqual(seen, [undefined, 'p2']);
  });

  it('treats a missing list as empty and a repeated cursor as an error', async () => {
    assert.deepEqual((await listAllLeniently(async () => ({}), 'resources', 'srv')).items, []);
    await assert.rejects(
      listAllLeniently(async () => ({ resources: [], nextCursor: 'same' }), 'resources', 'http://x/mcp'),
      /http:\/\/x\/mcp returned the cursor "same" twice while listing resources/,
    );
  });

  it('stops at the pager limit with its error code and message, not a "repeated cursor" one', async () => {
    let fetched = 0;
    const endless = listAllLeniently(
      async () => ({ resourceTemplates: [{ uriTemplate: `t://${fetched}/{x}` }], nextCursor: `c${++fetched}` }),
      'resourceTemplates',
      'srv',
    );
    await assert.rejects(endless, (err: McpNodeError) => {
      assert.equal(err.code, 'PAGINATION_LIMIT');
      assert.equal(err.status, 'too many pages');
      assert.match(err.message, new RegExp(`^srv still had more resourceTemplates after ${MAX_PAGES} pages \\(the limit; next cursor "c${MAX_PAGES}"\\)`));
      assert.doesNotMatch(err.message, /twice/);
      return true;
    });
    assert.equal(fetched, MAX_PAGES);
  });

  it('keeps the first of a name listed again on a later page, as tools/list does', async () => {
    const pages: Record<string, Record<string, unknown>> = {
      start: { prompts: [{ name: 'a', description: 'first' }], nextCursor: 'p2' },
      p2: { prompts: [{ name: 'a', description: 'again' }, { name: 'b' }] },
    };
    const { items } = await listAllLeniently<{ name: string; description?: string }>(async (cursor) => pages[cursor ?? 'start'], 'prompts', 'srv');
    assert.deepEqual(
      items.map((p) => [p.name, p.description]),
      [
        ['a', 'first'],
        ['b', undefined],
      ],
    );
  });

  it('joins text and embedded text resources; prompt arguments become text', () => {
    const text = promptText({
      messages: [
        { role: 'user', content: { type: 'text', text: 'one' } },
        { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
        { role: 'assistant', content: { type: 'resource', resource: { uri: 'x://y', text: 'two' } } },
      ] as any,
    });
    assert.equal(text, 'one\n\ntwo');
    assert.deepEqual(promptArguments({ n: 3, b: false, o: { a: 1 }, s: 's', gone: null }), { n: '3', b: 'false', o: '{"a":1}', s: 's' });
    assert.throws(() => promptArguments([1]), /Prompt arguments must be an object/);
  });
});
