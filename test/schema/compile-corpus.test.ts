// Every tool of every corpus, compiled into every format, passes the validator for its target; the
// declared names map back to the MCP names; the input is never mutated.
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { compileTools, isToolFormat, validateDeclarations, type ToolFormat, type ValidationTarget } from '../../src/schema';
import fc from 'fast-check';
import { everythingTools, staticCorpora, type Corpus } from './corpus';
import { anyOfNodeArb, rootSchemaArb } from './schema-arbitraries';

const TARGETS: ValidationTarget[] = ['gemini', 'gemini-schema', 'openai', 'anthropic'];
const NAME_RULE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function declaredNames(payload: unknown, format: ToolFormat): string[] {
  if (format === 'mcp') return (payload as Tool[]).map((t) => t.name);
  if (format === 'gemini' || format === 'gemini-schema')
    return (payload as { functionDeclarations: Array<{ name: string }> }).functionDeclarations.map((d) => d.name);
  if (format === 'openai') return (payload as Array<{ function: { name: string } }>).map((d) => d.function.name);
  return (payload as Array<{ name: string }>).map((d) => d.name);
}

describe('schema compiler: corpus', function () {
  const corpora: Corpus[] = staticCorpora();

  before(async function () {
    const tools = await everythingTools();
    assert.ok(tools.length >= 5, `server-everything listed ${tools.length} tools`);
    corpora.push({ name: 'server-everything (live)', tools });
  });

  it('has the corpora the issue asks for', function () {
    const names = corpora.map((c) => c.name);
    assert.deepEqual(names, ['home-assistant', 'xiaozhi otto', 'xiaozhi lichuang-dev', 'adversarial', 'server-everything (live)']);
    const adversarial = corpora.find((c) => c.name === 'adversarial')!;
    assert.ok(adversarial.tools.length >= 40, `adversarial corpus has ${adversarial.tools.length} schemas`);
  });

  for (const target of TARGETS) {
    it(`every compiled ${target} declaration passes the ${target} validator`, function () {
      for (const corpus of corpora) {
        const { payload } = compileTools(corpus.tools, target);
        assert.deepEqual(validateDeclarations(payload, target), [], `${corpus.name} as ${target}`);
        // Tool by tool too, so one bad tool cannot hide behind a payload-level problem.
        for (const tool of corpus.tools) {
          const single = compileTools([tool], target);
          assert.deepEqual(validateDeclarations(single.payload, target), [], `${corpus.name}: ${tool.name} as ${target}`);
        }
      }
    });
  }

  it('property: random schemas, and random JSON where a schema should be, compile into declarations every validator accepts', function () {
    const inputArb = fc.oneof(
      rootSchemaArb,
      fc.dictionary(fc.constantFrom('u', 'v'), anyOfNodeArb, { maxKeys: 2, noNullPrototype: true }).map((properties) => ({ type: 'object', properties })),
      fc.jsonValue({ maxDepth: 4 }),
    );
    fc.assert(
      fc.property(inputArb, fc.string({ maxLength: 70 }), (inputSchema, name) => {
        const tool = { name, description: 'generated', inputSchema } as Tool;
        for (const target of TARGETS) {
          const { payload } = compileTools([tool], target);
          assert.deepEqual(validateDeclarations(payload, target), [], `${target}: ${JSON.stringify(inputSchema)}`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: keyword values of any JSON type, anywhere, still compile into accepted declarations', function () {
    const KEYWORDS = [
      'type',
      'properties',
      'items',
      'required',
      'enum',
      'const',
      'minimum',
      'maxLength',
      'pattern',
      'format',
      'additionalProperties',
      'anyOf',
      'oneOf',
      'allOf',
      'not',
      '$ref',
      '$defs',
      'description',
      'default',
      'examples',
      'uniqueItems',
      'multipleOf',
      'exclusiveMinimum',
      'prefixItems',
      'dependencies',
      'dependentRequired',
      'patternProperties',
      'if',
      'contains',
      'nullable',
      'x-a',
    ];
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(
          fc.constantFrom(...KEYWORDS),
          fc.oneof(
            tie('node'),
            fc.constantFrom('string', 'object', '#', '#/$defs/a', '^(', '5', -1, 0.5, true, []),
            fc.array(tie('node'), { maxLength: 3 }),
            fc.dictionary(fc.constantFrom('a', 'b', 'x-c', '__proto__'), tie('node'), { maxKeys: 3 }),
          ),
          { maxKeys: 5 },
        ),
      ),
    }));
    fc.assert(
      fc.property(node, (inputSchema) => {
        const tool = { name: 'fuzzed', inputSchema } as Tool;
        for (const target of TARGETS)
          assert.deepEqual(validateDeclarations(compileTools([tool], target).payload, target), [], `${target}: ${JSON.stringify(inputSchema)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('a counterexample the property once found: dependentRequired with a name twice compiles into valid declarations', () => {
    const tool = { name: 'fuzzed', inputSchema: { dependentRequired: { type: ['', ''] } } } as unknown as Tool;
    for (const target of TARGETS) assert.deepEqual(validateDeclarations(compileTools([tool], target).payload, target), [], target);
  });

  it('a counterexample the property found in CI: a draft-07 dependencies list with a name twice compiles into valid declarations', () => {
    const tool = { name: 'fuzzed', inputSchema: { dependencies: { a: ['', ''] } } } as unknown as Tool;
    for (const target of TARGETS) assert.deepEqual(validateDeclarations(compileTools([tool], target).payload, target), [], target);
  });

  it('a counterexample the property found: a recursive reference to a root whose type is not a JSON Schema type compiles into valid declarations', () => {
    const tool = { name: 'fuzzed', inputSchema: { anyOf: [{ $ref: '#' }], type: ' ' } } as unknown as Tool;
    for (const target of TARGETS) assert.deepEqual(validateDeclarations(compileTools([tool], target).payload, target), [], target);
  });

  it('round-trips names: every declared name maps back to its MCP tool, for every format', function () {
    for (const corpus of corpora) {
      for (const format of ['mcp', ...TARGETS] as ToolFormat[]) {
        for (const prefix of [undefined, 'ha_']) {
          const { payload, names } = compileTools(corpus.tools, format, { prefix });
          const declared = declaredNames(payload, format);
          const expectedCount = new Set(corpus.tools.map((t) => t.name)).size;
          assert.equal(Object.keys(names).length, expectedCount, `${corpus.name} ${format}`);
          assert.deepEqual(new Set(Object.values(names)), new Set(corpus.tools.map((t) => t.name)));
          for (const name of Object.keys(names)) assert.match(name, NAME_RULE);
          if (format !== 'mcp') {
            assert.deepEqual([...declared].sort(), Object.keys(names).sort(), `${corpus.name} ${format}: payload names = map keys`);
            if (prefix) for (const d of declared) assert.ok(d.startsWith(prefix) || d.startsWith('_'), d);
          }
        }
      }
    }
  });

  it('mcp format returns the raw tools array untouched', function () {
    for (const corpus of corpora) {
      const { payload, warnings } = compileTools(corpus.tools, 'mcp');
      assert.equal(payload, corpus.tools);
      for (const w of warnings) assert.equal(w.path, '$', 'mcp only warns about names');
    }
  });

  it('never mutates its input and never shares objects with it', function () {
    for (const corpus of corpora) {
      const before = structuredClone(corpus.tools);
      for (const target of TARGETS) {
        const { payload } = compileTools(corpus.tools, target);
        assert.deepEqual(corpus.tools, before, `${corpus.name} mutated by ${target}`);
        // Scribble over the output: the input must not change.
        const text = JSON.stringify(payload);
        const walk = (node: unknown): void => {
          if (node && typeof node === 'object') {
            for (const v of Object.values(node)) walk(v);
            if (!Array.isArray(node)) (node as Record<string, unknown>).__scribbled = true;
          }
        };
        walk(payload);
        assert.deepEqual(corpus.tools, before, `${corpus.name}: ${target} output shares objects with the input`);
        assert.ok(text.length > 0);
      }
    }
  });

  it('reports warnings with the tool, a JSON path into its input schema, and a message', function () {
    const adversarial = corpora.find((c) => c.name === 'adversarial')!;
    const { warnings } = compileTools(adversarial.tools, 'gemini-schema');
    const toolNames = new Set(adversarial.tools.map((t) => t.name));
    assert.ok(warnings.length > 50, `${warnings.length} warnings`);
    for (const w of warnings) {
      assert.ok(toolNames.has(w.tool), w.tool);
      assert.match(w.path, /^\$/);
      assert.ok(w.message.length > 10);
    }
    const at = (tool: string, path: string) => warnings.filter((w) => w.tool === tool && w.path === path);
    assert.equal(at('additional_false', '$.additionalProperties').length, 1);
    assert.equal(at('additional_false', '$.properties.opts.additionalProperties').length, 1);
    assert.equal(at('one_of', '$.properties.target.oneOf').length, 1);
    assert.equal(at('const_values', '$.properties.kind.const').length, 1);
    assert.equal(at('multiple_of', '$.properties.step.multipleOf').length, 1);
    assert.equal(at('exclusive_bounds', '$.properties.positive.exclusiveMinimum').length, 1);
    assert.equal(at('examples_keyword', '$.properties.city.examples').length, 1);
    assert.equal(at('not_keyword', '$.properties.area.not').length, 1);
    assert.equal(at('all_of_merge', '$.properties.light.allOf').length, 1);
    assert.equal(at('pattern_properties', '$.properties.labels.patternProperties').length, 1);
    assert.equal(at('bad_property_names', '$.properties["entity-id"]').length, 1);
    assert.equal(at('recursive_tree', '$.properties.root.properties.children.items.$ref').length, 1);
  });

  it('cuts schemas nested deeper than 32 levels (20,000 here) and says where', function () {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20000; i++) deep = { type: 'object', properties: { next: deep } };
    for (const target of TARGETS) {
      const { payload, warnings } = compileTools([{ name: 'abyss', inputSchema: deep } as Tool], target);
      assert.deepEqual(validateDeclarations(payload, target), [], target);
      const cut = warnings.filter((w) => /nested deeper than 32 levels/.test(w.message));
      assert.equal(cut.length, 1, target);
      assert.equal(cut[0].path, '$' + '.properties.next'.repeat(32));
    }
  });

  it('declares a tool whose schema throws while being read without parameters; the other tools are unaffected', function () {
    const hostile = { type: 'object' } as Record<string, unknown>;
    Object.defineProperty(hostile, 'properties', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const tools = [{ name: 'hostile', inputSchema: hostile } as Tool, ...corpora[0].tools.slice(0, 2)];
    for (const target of TARGETS) {
      const { payload, warnings } = compileTools(tools, target);
      assert.deepEqual(validateDeclarations(payload, target), [], target);
      assert.ok(
        warnings.some((w) => w.tool === 'hostile' && /could not be compiled \(boom\)/.test(w.message)),
        target,
      );
      assert.ok(JSON.stringify(payload).includes('HassTurnOff'), 'the other tools are still declared');
    }
  });

  it('the validator refuses schemas nested deeper than 64 levels', function () {
    let deep: Record<string, unknown> = { type: 'STRING' };
    for (let i = 0; i < 70; i++) deep = { type: 'OBJECT', properties: { n: deep } };
    expectDeep(validateDeclarations({ functionDeclarations: [{ name: 'd', parameters: deep }] }, 'gemini-schema'));
    let json: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 70; i++) json = { type: 'object', properties: { n: json } };
    expectDeep(validateDeclarations([{ name: 'd', input_schema: json }], 'anthropic'));
    function expectDeep(problems: string[]): void {
      assert.ok(
        problems.some((p) => /nested deeper than 64 levels/.test(p)),
        JSON.stringify(problems),
      );
    }
  });

  it('isToolFormat accepts exactly the five formats', function () {
    for (const f of ['mcp', 'gemini', 'gemini-schema', 'openai', 'anthropic']) assert.equal(isToolFormat(f), true);
    for (const f of ['Gemini', 'json', '', undefined, null, 3, {}]) assert.equal(isToolFormat(f), false);
  });

  it('throws a clear TypeError for an unknown format at runtime', function () {
    assert.throws(() => compileTools([], 'claude' as ToolFormat), /unknown tool format "claude"/);
  });
});
