// The validator must reject what the providers reject, or "every declaration passes" proves nothing.
import assert from 'node:assert/strict';
import { compileTools, validateDeclarations } from '../../src/schema';
import { homeAssistantTools } from './corpus';

function geminiTool(decl: Record<string, unknown>): unknown {
  return { functionDeclarations: [decl] };
}

function schemaDecl(parameters: unknown, name = 'ok_name'): unknown {
  return geminiTool({ name, description: 'd', parameters });
}

function expectProblem(problems: string[], pattern: RegExp): void {
  assert.ok(
    problems.some((p) => pattern.test(p)),
    `expected a problem matching ${pattern}, got ${JSON.stringify(problems)}`,
  );
}

describe('schema compiler: validator rejects what providers reject', function () {
  const ha = homeAssistantTools();

  it('rejects raw MCP schemas sent as gemini-schema parameters (lower-case types, additionalProperties, const, $ref)', function () {
    const raw = ha.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }));
    const problems = validateDeclarations({ functionDeclarations: raw }, 'gemini-schema');
    expectProblem(problems, /type: invalid value "object"/);
    const withExtras = { type: 'OBJECT', additionalProperties: false, properties: { a: { type: 'STRING', const: 'x' }, b: { $ref: '#/$defs/b' } } };
    const extras = validateDeclarations(schemaDecl(withExtras), 'gemini-schema');
    expectProblem(extras, /Unknown name "additionalProperties"/);
    expectProblem(extras, /Unknown name "const"/);
    expectProblem(extras, /Unknown name "\$ref"/);
  });

  it('rejects the keywords gemini-api.md §3.1 lists as 400s', function () {
    for (const key of [
      'oneOf',
      'allOf',
      'not',
      'examples',
      'multipleOf',
      'exclusiveMinimum',
      'exclusiveMaximum',
      '$schema',
      '$defs',
      'x-mcp-header',
      'patternProperties',
    ]) {
      const problems = validateDeclarations(schemaDecl({ type: 'OBJECT', properties: { a: { type: 'NUMBER', [key]: 1 } } }), 'gemini-schema');
      expectProblem(problems, new RegExp(`Unknown name "${key.replace('$', '\\$')}"`));
    }
  });

  it('rejects type lists, arrays without items, non-string enums, enums on non-strings and unsupported formats', function () {
    const cases: Array<[unknown, RegExp]> = [
      [{ type: ['STRING', 'NULL'] }, /not repeating/],
      [{ type: 'ARRAY' }, /items: missing field/],
      [{ type: 'INTEGER', enum: [1, 2] }, /values must be strings/],
      [{ type: 'INTEGER', enum: ['1', '2'] }, /only allowed for STRING/],
      [{ type: 'STRING', format: 'uri' }, /format: "uri" is not supported for STRING/],
      [{ type: 'string' }, /invalid value "string"/],
      [{ description: 'no type' }, /type: must be specified/],
      [{ type: 'OBJECT', properties: { a: 'object' } }, /must be a Schema object/],
      [{ type: 'OBJECT', properties: { a: { type: 'STRING' } }, required: ['a', 'b'] }, /required fields \["b"\] are not defined/],
      [{ type: 'OBJECT', properties: { 'entity-id': { type: 'STRING' } } }, /parameter names must start/],
      [{ type: 'STRING', anyOf: [] }, /anyOf: must be a non-empty array/],
      [{ type: 'STRING', minLength: -1 }, /minLength: must be a non-negative integer/],
    ];
    for (const [schema, pattern] of cases) {
      const problems = validateDeclarations(schemaDecl({ type: 'OBJECT', properties: { p: schema } }), 'gemini-schema');
      expectProblem(problems, pattern);
    }
    expectProblem(validateDeclarations(schemaDecl({ type: 'STRING' }), 'gemini-schema'), /must be a Schema of type OBJECT/);
  });

  it('rejects dotted, spaced, digit-first, too long and duplicate names for every target', function () {
    const bad = ['self.audio_speaker.set_volume', 'tool with spaces', '3d_print', 'n'.repeat(65)];
    for (const name of bad) {
      expectProblem(validateDeclarations(schemaDecl({ type: 'OBJECT', properties: {} }, name), 'gemini-schema'), /\.name: .* does not match/);
      expectProblem(validateDeclarations(geminiTool({ name, parametersJsonSchema: { type: 'object', properties: {} } }), 'gemini'), /does not match/);
      if (name !== '3d_print') {
        expectProblem(
          validateDeclarations([{ type: 'function', function: { name, parameters: { type: 'object', properties: {} } } }], 'openai'),
          /does not match/,
        );
        expectProblem(validateDeclarations([{ name, input_schema: { type: 'object', properties: {} } }], 'anthropic'), /does not match/);
      }
    }
    const dup = {
      functionDeclarations: [
        { name: 'a', parameters: { type: 'OBJECT', properties: {} } },
        { name: 'a', parameters: { type: 'OBJECT', properties: {} } },
      ],
    };
    expectProblem(validateDeclarations(dup, 'gemini-schema'), /duplicate function name "a"/);
  });

  it('rejects gemini declarations that mix or misplace parametersJsonSchema', function () {
    const schema = { type: 'object', properties: {} };
    expectProblem(
      validateDeclarations(geminiTool({ name: 'a', parameters: { type: 'OBJECT', properties: {} }, parametersJsonSchema: schema }), 'gemini'),
      /mutually exclusive/,
    );
    expectProblem(validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: [] }), 'gemini'), /top-level must be an object/);
    expectProblem(validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: { type: 'string' } }), 'gemini'), /type: must be "object"/);
    expectProblem(
      validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: { type: 'object', properties: { b: { $ref: '#/$defs/missing' } } } }), 'gemini'),
      /does not resolve/,
    );
    expectProblem(
      validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: { type: 'object', properties: { b: { type: 'strin' } } } }), 'gemini'),
      /not valid JSON Schema/,
    );
    expectProblem(
      validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: { type: 'object', properties: {}, 'x-mcp-header': 'h' } }), 'gemini'),
      /vendor keyword/,
    );
    expectProblem(validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: schema, functionCall: {} }), 'gemini'), /unknown field "functionCall"/);
    expectProblem(validateDeclarations([{}], 'gemini'), /functionDeclarations array/);
    expectProblem(validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: schema }), 'gemini-schema'), /use parameters, not parametersJsonSchema/);
    // The Gemini API takes both forms, and checks `parameters` by the Schema rules.
    assert.deepEqual(validateDeclarations(compileTools(ha, 'gemini-schema').payload, 'gemini'), []);
    expectProblem(
      validateDeclarations(geminiTool({ name: 'a', parameters: { type: 'OBJECT', properties: { b: { type: 'string' } } } }), 'gemini'),
      /invalid value "string"/,
    );
    // A property NAMED x-… is not a vendor keyword.
    assert.deepEqual(
      validateDeclarations(geminiTool({ name: 'a', parametersJsonSchema: { type: 'object', properties: { 'x-api': { type: 'string' } } } }), 'gemini'),
      [],
    );
  });

  it('rejects top-level anyOf/oneOf/allOf for openai and anthropic, and their shape errors', function () {
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const schema = { type: 'object', properties: {}, [key]: [{ required: ['a'] }] };
      expectProblem(validateDeclarations([{ name: 'a', input_schema: schema }], 'anthropic'), new RegExp(`${key} is not allowed at the top level`));
      expectProblem(
        validateDeclarations([{ type: 'function', function: { name: 'a', parameters: schema } }], 'openai'),
        new RegExp(`${key} is not allowed at the top level`),
      );
    }
    expectProblem(validateDeclarations([{ function: { name: 'a', parameters: { type: 'object', properties: {} } } }], 'openai'), /type: must be "function"/);
    expectProblem(validateDeclarations([{ name: 'a', input_schema: { properties: {} } }], 'anthropic'), /type: must be "object"/);
    expectProblem(validateDeclarations([{ name: 'a', inputSchema: { type: 'object', properties: {} } }], 'anthropic'), /unknown field "inputSchema"/);
    expectProblem(validateDeclarations({}, 'openai'), /must be an array/);
  });

  it('accepts well-formed declarations of every target (the checks are not blanket refusals)', function () {
    for (const target of ['gemini', 'gemini-schema', 'openai', 'anthropic'] as const) {
      const { payload } = compileTools(ha, target);
      assert.deepEqual(validateDeclarations(payload, target), []);
    }
    const handWritten = schemaDecl({
      type: 'OBJECT',
      properties: {
        when: { type: 'STRING', format: 'date-time', nullable: true },
        n: { type: 'INTEGER', format: 'int64', minimum: 0, maximum: 10 },
        list: { type: 'ARRAY', items: { type: 'STRING', enum: ['a'] }, minItems: '1' },
        either: { anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }], description: 'x' },
      },
      required: ['n'],
      propertyOrdering: ['n', 'when'],
    });
    assert.deepEqual(validateDeclarations(handWritten, 'gemini-schema'), []);
  });
});
