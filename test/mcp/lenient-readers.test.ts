// The lenient readers on their own, for the deviations the peer does not send: each repaired
// result must pass the SDK's own CallToolResult schema, and what cannot be read stays an error.
import assert from 'node:assert/strict';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { readCallResultLeniently } from '../../src/mcp/lenient/lenient-result';
import { readListLeniently, validate } from '../../src/mcp/lenient/lenient-list';

const accepted = (v: unknown) => assert.deepEqual(validate(specTypeSchemas.CallToolResult, v), []);

describe('lenient readers', () => {
  it('tools/call: shapes the SDK rejects become results it accepts, each change named', () => {
    const cases: Array<[unknown, unknown, string[]]> = [
      ['plain text', { content: [{ type: 'text', text: 'plain text' }] }, ['']],
      [[{ type: 'text', text: 'a' }], { content: [{ type: 'text', text: 'a' }] }, ['']],
      [{ content: { type: 'text', text: 'one' } }, { content: [{ type: 'text', text: 'one' }] }, ['content']],
      [{ content: [{ type: 'text', text: 42 }] }, { content: [{ type: 'text', text: '42' }] }, ['content[0]']],
      [{ content: [{ type: 'text', text: 'x', annotations: 'loud' }] }, { content: [{ type: 'text', text: 'x' }] }, ['content[0]']],
      [{ content: [], isError: 'true' }, { content: [], isError: true }, ['isError']],
      [{ content: [], isError: 'maybe' }, { content: [] }, ['isError']],
      [{ content: [], structuredContent: null }, { content: [] }, ['structuredContent']],
      [{ content: null }, { content: [] }, ['content']],
      [{}, {}, []], // the SDK itself reads a result without content as empty: nothing to repair
      [{ content: [{ type: 'text', text: 'ok' }] }, { content: [{ type: 'text', text: 'ok' }] }, []],
    ];
    for (const [raw, expected, paths] of cases) {
      const { result, warnings } = readCallResultLeniently('t', raw);
      assert.deepEqual(result, expected, JSON.stringify(raw));
      accepted(result);
      assert.deepEqual(
        warnings.map((w) => w.path),
        paths,
        JSON.stringify(raw),
      );
      assert.ok(warnings.every((w) => w.tool === 't'));
    }
  });

  it('tools/call: no result at all stays an error', () => {
    assert.throws(() => readCallResultLeniently('t', null), /answered tools\/call "t" with null instead of a result/);
  });

  it('tools/list: the raw page is not changed, a type list containing "object" is read as "object"', () => {
    const raw = { tools: [{ name: 'a', inputSchema: { type: ['object', 'null'], properties: {}, required: 'a' } }], nextCursor: 7 };
    const before = JSON.stringify(raw);
    const page = readListLeniently('tools', raw);
    assert.equal(JSON.stringify(raw), before);
    assert.deepEqual(page.items, [{ name: 'a', inputSchema: { type: 'object', properties: {} } }]);
    assert.equal(page.nextCursor, '7');
    assert.deepEqual(
      page.warnings.map((w) => w.path),
      ['inputSchema.type', 'inputSchema.required', 'nextCursor'],
    );
  });

  it('tools/list: a page without a tools array stays an error saying what came', () => {
    assert.throws(() => readListLeniently('tools', null), /no "tools" array \(got null\)/);
  });
});
