// The fake Gemini's declaration checker refuses what the real API refuses (gemini-api.md §3) and
// accepts what it accepts, so the schema-compiler tests that go through the fake can fail.
import assert from 'node:assert/strict';
import { declarationProblems } from '../peers/fake-gemini/declarations';

const decl = (d: Record<string, unknown>) => [{ functionDeclarations: [{ name: 'f', description: 'x', ...d }] }];

describe('fake Gemini: function declaration checks from the API documentation', () => {
  it('accepts parametersJsonSchema with additionalProperties, type arrays, $defs and $schema (observed 200s)', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: ['string', 'number', 'null'], pattern: '^x' }, b: { $ref: '#/$defs/b' } },
      $defs: { b: { type: 'string' } },
    };
    assert.deepEqual(declarationProblems(decl({ parametersJsonSchema: schema })), []);
  });

  it('accepts a parameters Schema within the proto fields', () => {
    const parameters = {
      type: 'OBJECT',
      properties: { n: { type: 'INTEGER', minimum: 0 }, tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a'] } } },
      required: ['n'],
    };
    assert.deepEqual(declarationProblems(decl({ parameters })), []);
  });

  for (const [what, parameters, expected] of [
    ['additionalProperties', { type: 'OBJECT', additionalProperties: false }, /Unknown name "additionalProperties"/],
    ['$schema', { $schema: 'x', type: 'OBJECT' }, /Unknown name "\$schema"/],
    ['const', { type: 'OBJECT', properties: { a: { const: 1 } } }, /Unknown name "const"/],
    ['oneOf', { type: 'OBJECT', properties: { a: { oneOf: [] } } }, /Unknown name "oneOf"/],
    ['a type array', { type: ['STRING', 'NULL'] }, /Proto field is not repeating/],
    ['an array without items', { type: 'OBJECT', properties: { a: { type: 'ARRAY' } } }, /items': missing field/],
    ['required naming an undeclared property', { type: 'OBJECT', properties: {}, required: ['x'] }, /not defined in the schema properties/],
    ['a property that is not an object', { type: 'OBJECT', properties: { a: 'string' } }, /Invalid value at/],
    ['x-* vendor keys', { type: 'OBJECT', 'x-mcp-header': 1 }, /Unknown name "x-mcp-header"/],
  ] as const) {
    it(`refuses parameters with ${what}`, () => {
      const problems = declarationProblems(decl({ parameters }));
      assert.ok(
        problems.some((p) => expected.test(p)),
        problems.join('\n') || '(accepted)',
      );
    });
  }

  it('refuses bad names, both schema fields at once, a non-object JSON schema and more than 128 declarations', () => {
    assert.match(declarationProblems([{ functionDeclarations: [{ name: '1tool' }] }]).join(), /Invalid function name/);
    assert.match(declarationProblems([{ functionDeclarations: [{ name: 'a'.repeat(65) }] }]).join(), /maximum length of 64/);
    assert.match(declarationProblems(decl({ parameters: { type: 'OBJECT' }, parametersJsonSchema: {} })).join(), /mutually exclusive/);
    assert.match(declarationProblems(decl({ parametersJsonSchema: 'object' })).join(), /must be a boolean or an object/);
    const many = [{ functionDeclarations: Array.from({ length: 129 }, (_, i) => ({ name: `f${i}` })) }];
    assert.match(declarationProblems(many).join(), /At most 128/);
  });
});
