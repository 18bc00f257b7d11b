// Meaning kept. For schemas without recursion, every value the original accepts is accepted by the
// JSON-Schema outputs (gemini, openai, anthropic). For gemini-schema, every anyOf branch of the input
// is still there, with its type, in the output.
import assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { compileTools, restoreArgumentNames } from '../../src/schema';
import { ajvFor } from '../../src/schema/json-schema-dialect';
import { ADVERSARIAL } from './adversarial-corpus';
import { everythingTools, homeAssistantTools, xiaozhiTools } from './corpus';
import { anyOfNodeArb, instanceArb, rootSchemaArb } from './schema-arbitraries';

type Schema = Record<string, any>;
const JSON_TARGETS = ['gemini', 'openai', 'anthropic'] as const;

function outputSchema(tool: Tool, format: (typeof JSON_TARGETS)[number] | 'gemini-schema'): Schema {
  const { payload } = compileTools([tool], format);
  if (format === 'gemini') return (payload as any).functionDeclarations[0].parametersJsonSchema;
  if (format === 'gemini-schema') return (payload as any).functionDeclarations[0].parameters;
  if (format === 'openai') return (payload as any)[0].function.parameters;
  return (payload as any)[0].input_schema;
}

function tool(inputSchema: Schema, name = 'generated'): Tool {
  return { name, description: 'generated', inputSchema: inputSchema as Tool['inputSchema'] };
}

describe('schema compiler: meaning kept', function () {
  this.timeout(120000);

  it('property: values valid under a random non-recursive schema stay valid under gemini, openai and anthropic output', function () {
    let checked = 0;
    let runs = 0;
    const ajv = addFormats(new Ajv2020({ strict: false, logger: false }));
    fc.assert(
      fc.property(
        rootSchemaArb.chain((schema) => fc.tuple(fc.constant(schema), fc.array(instanceArb(schema, schema), { minLength: 4, maxLength: 8 }))),
        ([schema, values]) => {
          runs++;
          // Compiled schemas are cached by Ajv: clear them so they do not pile up over the runs.
          ajv.removeSchema();
          const original = ajv.compile(schema);
          const outputs = JSON_TARGETS.map((f) => [f, ajv.compile(outputSchema(tool(schema), f))] as const);
          for (const value of values) {
            // Tool arguments are always an object; the compiler guarantees an object root.
            if (!isArguments(value) || !original(value)) continue;
            checked++;
            for (const [format, validate] of outputs) {
              assert.ok(
                validate(value),
                `${format} output rejects ${JSON.stringify(value)} that ${JSON.stringify(schema)} accepts: ${JSON.stringify(validate.errors)}`,
              );
            }
          }
        },
      ),
      { numRuns: 200 },
    );
    // The property is only worth something if generated values do pass the original often enough.
    assert.ok(checked >= runs, `only ${checked} valid values in ${runs} runs`);
  });

  it('values valid under each real and adversarial (non-recursive) tool stay valid under the JSON-Schema outputs', async function () {
    const tools: Tool[] = [
      ...homeAssistantTools(),
      ...xiaozhiTools('device-tools.json'),
      ...xiaozhiTools('device-tools-lichuang-dev.json'),
      ...(await everythingTools()),
      ...ADVERSARIAL.filter((a) => !a.recursive && !a.unresolvable).map((a) => a.tool),
    ];
    let checked = 0;
    for (const t of tools) {
      const input = t.inputSchema as Schema;
      const ajv = ajvFor(input);
      const original = ajv.compile(input);
      const outputs = JSON_TARGETS.map((f) => {
        const out = outputSchema(t, f);
        return [f, ajv.compile(input.$schema ? { ...out, $schema: input.$schema } : out)] as const;
      });
      const values = fc.sample(instanceArb(input, input), { numRuns: 40, seed: 42 });
      for (const value of values) {
        if (!isArguments(value) || !original(value)) continue;
        checked++;
        for (const [format, validate] of outputs) assert.ok(validate(value), `${t.name} as ${format} rejects ${JSON.stringify(value)}`);
      }
    }
    assert.ok(checked > tools.length * 10, `${checked} values checked over ${tools.length} tools`);
  });

  it('recursive schemas are cut, not looped: one level is kept, deeper levels stay open', function () {
    for (const entry of ADVERSARIAL.filter((a) => a.recursive)) {
      for (const format of [...JSON_TARGETS, 'gemini-schema'] as const) {
        const text = JSON.stringify(outputSchema(entry.tool, format));
        assert.ok(!text.includes('$ref'), `${entry.tool.name} ${format} still has $ref`);
        assert.match(text, /Recursive: same structure as/);
      }
    }
    const tree = outputSchema(ADVERSARIAL.find((a) => a.tool.name === 'recursive_tree')!.tool, 'gemini');
    assert.deepEqual(tree.properties.root.properties.children.items, { type: 'object', description: 'Recursive: same structure as #/$defs/node' });
    // A tree two levels deep is still accepted.
    const ajv = addFormats(new Ajv2020({ strict: false, logger: false }));
    assert.ok(ajv.validate(tree, { root: { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] } }));
  });

  it('property: gemini-schema keeps every anyOf branch of the input (null branches as nullable)', function () {
    let unions = 0;
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('u', 'v', 'w'), anyOfNodeArb, { minKeys: 1, maxKeys: 3 }), (properties) => {
        const input = { type: 'object', properties };
        const out = outputSchema(tool(input), 'gemini-schema');
        for (const [name, schema] of Object.entries(properties)) unions += checkBranches(schema, out.properties[name], `$.properties.${name}`);
      }),
      { numRuns: 300 },
    );
    assert.ok(unions > 300, `${unions} anyOf nodes checked`);
  });

  it('gemini-schema turns oneOf into anyOf with the same branches, and type lists into one branch per type', function () {
    const oneOf = outputSchema(ADVERSARIAL.find((a) => a.tool.name === 'one_of')!.tool, 'gemini-schema').properties.target;
    assert.deepEqual(
      oneOf.anyOf.map((b: Schema) => b.type),
      ['STRING', 'ARRAY'],
    );
    const multi = outputSchema(ADVERSARIAL.find((a) => a.tool.name === 'multi_type_array')!.tool, 'gemini-schema').properties;
    assert.deepEqual(multi.value.anyOf, [{ type: 'STRING', minLength: 1 }, { type: 'NUMBER', minimum: -5 }, { type: 'BOOLEAN' }]);
    assert.deepEqual(multi.id.anyOf, [
      { type: 'INTEGER', nullable: true },
      { type: 'STRING', nullable: true },
    ]);
  });

  it('gemini-schema folds removed meaning into descriptions', function () {
    const props = (name: string) => outputSchema(ADVERSARIAL.find((a) => a.tool.name === name)!.tool, 'gemini-schema').properties;
    assert.match(props('multiple_of').step.description, /multiple of 5/);
    assert.match(props('exclusive_bounds').positive.description, /greater than 0.*less than 10/);
    assert.match(props('format_values').url.description, /Format: uri/);
    assert.equal(props('format_values').when.format, 'date-time');
    assert.equal(props('format_values').small.format, 'int32');
    assert.match(props('numeric_enum').speed.description, /One of: 1, 2, 3/);
    assert.deepEqual(props('const_values').kind, { type: 'STRING', enum: ['light'] });
    assert.match(props('additional_schema').attributes.description, /Attribute map\. Free-form object: any keys, each value a string/);
    assert.match(props('not_keyword').area.description, /Must not match/);
    assert.deepEqual(props('array_without_items').tags.items, { type: 'STRING' });
    assert.equal(props('examples_keyword').city.example, 'Paris');
    const dependent = outputSchema(ADVERSARIAL.find((a) => a.tool.name === 'dependent_required')!.tool, 'gemini-schema');
    assert.match(dependent.description, /If start is given, end must be given too\. If tz is given, start must be given too\./);
    const rootAnyOf = compileTools([ADVERSARIAL.find((a) => a.tool.name === 'root_any_of_required')!.tool], 'gemini-schema').payload as any;
    assert.match(rootAnyOf.functionDeclarations[0].description, /at least one of: \(title\) or \(status\)/);
  });

  it('restoreArgumentNames maps renamed gemini-schema parameters back to the MCP names', function () {
    const t = ADVERSARIAL.find((a) => a.tool.name === 'bad_property_names')!.tool;
    const out = outputSchema(t, 'gemini-schema');
    const long = Object.keys(out.properties).find((k) => k.startsWith('ppp'))!;
    const args = { entity_id: 'light.kitchen', light_brightness: 5, _9am: true, with_space: 'a', [long]: 'b', nested: { x_y: 1 } };
    for (const key of Object.keys(args)) assert.ok(key in out.properties, `${key} is a declared parameter`);
    const restored = restoreArgumentNames(t.inputSchema, args);
    assert.deepEqual(restored, {
      'entity-id': 'light.kitchen',
      'light.brightness': 5,
      '9am': true,
      'with space': 'a',
      ['p'.repeat(70)]: 'b',
      nested: { 'x-y': 1 },
    });
    const ajv = addFormats(new Ajv2020({ strict: false, logger: false }));
    assert.ok(ajv.validate(t.inputSchema, restored), JSON.stringify(ajv.errors));
    // "__proto__" survives the trip (the SDK would drop it as a `parameters` key).
    const proto = ADVERSARIAL.find((a) => a.tool.name === 'proto_keys')!.tool;
    const protoOut = outputSchema(proto, 'gemini-schema');
    const declaredProto = Object.keys(protoOut.properties).find((k) => k.startsWith('__proto___'))!;
    assert.match(declaredProto, /^__proto___[0-9a-f]{8}$/);
    assert.deepEqual(protoOut.required, [declaredProto, 'constructor']);
    const back = restoreArgumentNames(proto.inputSchema, { [declaredProto]: 'p', constructor: 1 });
    assert.deepEqual(Object.keys(back).sort(), ['__proto__', 'constructor']);
    assert.equal(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, 'p');
    // Names that needed no change come back as they were.
    const ha = homeAssistantTools().find((x) => x.name === 'HassTurnOn')!;
    assert.deepEqual(restoreArgumentNames(ha.inputSchema, { name: 'x', domain: ['light'] }), { name: 'x', domain: ['light'] });
  });

  it('property: restoreArgumentNames inverts the gemini-schema renaming for any property names', function () {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 70 }), { minLength: 1, maxLength: 6 }), (names) => {
        if (names.some((n) => n === '__proto__')) return;
        const input = { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string' }])) };
        const out = outputSchema(tool(input), 'gemini-schema');
        // JS orders integer-like keys first: read the names back in the schema's own order.
        const ordered = Object.keys(input.properties);
        const declared = Object.keys(out.properties);
        assert.equal(declared.length, ordered.length);
        const args = Object.fromEntries(declared.map((d, i) => [d, `v${i}`]));
        const restored = restoreArgumentNames(input, args);
        assert.deepEqual(Object.keys(restored).sort(), [...names].sort());
        // Each value lands on the property whose declaration carried it.
        declared.forEach((d, i) => assert.equal(restored[ordered[i]], `v${i}`, `${d} -> ${ordered[i]}`));
      }),
      { numRuns: 200 },
    );
  });
});

function isArguments(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullable(s: Schema): boolean {
  return s.nullable === true || (Array.isArray(s.anyOf) && s.anyOf.every(isNullable));
}

function isNullBranch(b: unknown): boolean {
  return typeof b === 'object' && b !== null && (b as Schema).type === 'null' && Object.keys(b).length === 1;
}

const GEMINI_TYPE: Record<string, string> = { string: 'STRING', integer: 'INTEGER', number: 'NUMBER', boolean: 'BOOLEAN', array: 'ARRAY', object: 'OBJECT' };

function expectedType(b: Schema): string | undefined {
  if (typeof b.type === 'string') return GEMINI_TYPE[b.type];
  if ('const' in b) return typeof b.const === 'string' ? 'STRING' : undefined;
  if (Array.isArray(b.enum)) return b.enum.every((v: unknown) => typeof v === 'number' && Number.isInteger(v)) ? 'INTEGER' : undefined;
  if (Array.isArray(b.anyOf)) return undefined;
  return 'STRING'; // {} = any value, declared as STRING
}

/** Walks input and output together; returns how many anyOf nodes it checked. */
function checkBranches(input: Schema, output: Schema, path: string): number {
  assert.ok(output, `${path}: missing in output`);
  let count = 0;
  if (Array.isArray(input.anyOf)) {
    count++;
    const kept = input.anyOf.filter((b: unknown) => !isNullBranch(b));
    const hadNull = kept.length < input.anyOf.length;
    if (kept.length === 0) {
      assert.equal(output.type, 'NULL', path);
      return count;
    }
    // A single branch (beside null or alone) collapses into the node itself.
    const branches: Schema[] = kept.length === 1 ? [output] : (output.anyOf ?? []);
    assert.equal(branches.length, kept.length, `${path}: ${kept.length} branches in, ${branches.length} out`);
    kept.forEach((b: Schema, i: number) => {
      const at = `${path}.anyOf[${i}]`;
      const type = expectedType(b);
      if (type) assert.equal(branches[i].type, type, at);
      else if (Array.isArray(b.anyOf)) assert.ok(Array.isArray(branches[i].anyOf) || branches[i].type, at);
      if (hadNull) assert.ok(isNullable(branches[i]), `${at}: nullable`);
      count += checkBranches(b, branches[i], at);
    });
    return count;
  }
  if (input.properties) {
    for (const [name, sub] of Object.entries(input.properties)) count += checkBranches(sub as Schema, output.properties?.[name], `${path}.properties.${name}`);
  }
  if (input.items) count += checkBranches(input.items, output.items, `${path}.items`);
  return count;
}
