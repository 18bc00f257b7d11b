// One resolver for same-document $refs, used by the cleaner (inlining) and the validator (unresolved
// references): escapes per RFC 6901, nothing from the prototype chain, malformed escapes name nothing.
import assert from 'node:assert/strict';
import { compileTools, validateDeclarations } from '../../src/schema';
import { resolvePointer } from '../../src/schema/json-pointer';
import type { Tool } from '../../src/mcp/protocol/sdk';

const root = { $defs: { 'a/b': { type: 'string' }, 'm~n': { type: 'number' }, 'sp ace': { type: 'boolean' } }, prefixItems: [{ type: 'null' }] };

describe('json-pointer: same-document $ref resolution', () => {
  it('decodes ~1, ~0 and percent escapes and walks arrays', () => {
    assert.equal(resolvePointer(root, '#'), root);
    assert.deepEqual(resolvePointer(root, '#/$defs/a~1b'), { type: 'string' });
    assert.deepEqual(resolvePointer(root, '#/$defs/m~0n'), { type: 'number' });
    assert.deepEqual(resolvePointer(root, '#/$defs/sp%20ace'), { type: 'boolean' });
    assert.deepEqual(resolvePointer(root, '#/prefixItems/0'), { type: 'null' });
  });

  it('answers undefined for other documents, missing keys, prototype members and malformed escapes', () => {
    for (const ref of ['other.json#/x', '#/$defs/none', '#/constructor', '#/$defs/toString', '#/$defs/%zz'])
      assert.equal(resolvePointer(root, ref), undefined, ref);
  });

  it('the cleaner and the validator agree: a prototype or malformed $ref is unresolvable, not a crash', () => {
    for (const ref of ['#/constructor', '#/$defs/%zz']) {
      const tool = { name: 't', inputSchema: { type: 'object', properties: { a: { $ref: ref } } } } as unknown as Tool;
      const compiled = compileTools([tool], 'openai');
      assert.ok(
        compiled.warnings.some((w) => w.message.includes(`reference "${ref}" cannot be resolved`)),
        JSON.stringify(compiled.warnings),
      );
      const problems = validateDeclarations(
        { functionDeclarations: [{ name: 't', parametersJsonSchema: { type: 'object', properties: { a: { $ref: ref } } } }] },
        'gemini',
      );
      assert.ok(
        problems.some((p) => p.includes(`"${ref}" does not resolve inside the schema`)),
        JSON.stringify(problems),
      );
    }
  });
});
