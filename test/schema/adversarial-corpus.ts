// Schemas and names that break LLM providers in the wild (see https://ai.google.dev/api/caching#Schema): every
// construct the compiler must either keep, rewrite or report. Each entry says what it attacks.
import type { Tool } from '@modelcontextprotocol/client';

export interface AdversarialTool {
  tool: Tool;
  /** What the entry attacks. */
  attacks: string;
  /** Recursive references: excluded from the "same instances validate" property. */
  recursive?: boolean;
  /** The original is not valid, compilable JSON Schema (external $ref, draft-03/04 forms, unknown types). */
  unresolvable?: boolean;
}

function entry(name: string, attacks: string, inputSchema: unknown, extra: Partial<AdversarialTool> & { description?: string } = {}): AdversarialTool {
  const { description = `Adversarial: ${attacks}`, ...flags } = extra;
  return { tool: { name, description, inputSchema: inputSchema as Tool['inputSchema'] }, attacks, ...flags };
}

const treeNode = {
  type: 'object',
  properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
  required: ['label'],
};

export const ADVERSARIAL: AdversarialTool[] = [
  entry('defs_ref', '$defs + $ref', {
    type: 'object',
    $defs: { color: { type: 'string', enum: ['red', 'green'] } },
    properties: { fg: { $ref: '#/$defs/color' }, bg: { $ref: '#/$defs/color', description: 'Background' } },
  }),
  entry('definitions_ref', 'draft-07 definitions + $ref', {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    definitions: { point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
    properties: { from: { $ref: '#/definitions/point' }, to: { $ref: '#/definitions/point' } },
    required: ['from'],
  }),
  entry(
    'recursive_tree',
    'self-recursive $ref',
    { type: 'object', $defs: { node: treeNode }, properties: { root: { $ref: '#/$defs/node' } } },
    { recursive: true },
  ),
  entry(
    'mutual_recursion',
    'mutually recursive refs',
    {
      type: 'object',
      $defs: {
        a: { type: 'object', properties: { b: { $ref: '#/$defs/b' }, n: { type: 'integer' } } },
        b: { type: 'object', properties: { a: { $ref: '#/$defs/a' }, s: { type: 'string' } } },
      },
      properties: { start: { $ref: '#/$defs/a' } },
    },
    { recursive: true },
  ),
  entry(
    'root_recursion',
    '$ref "#" to the root',
    {
      type: 'object',
      properties: { name: { type: 'string' }, next: { $ref: '#' } },
    },
    { recursive: true },
  ),
  entry('ref_with_constraints', '$ref with non-annotation siblings', {
    type: 'object',
    $defs: { text: { type: 'string', maxLength: 20 } },
    properties: { code: { $ref: '#/$defs/text', minLength: 3, pattern: '^[A-Z]+$' } },
  }),
  entry(
    'external_ref',
    '$ref to another document',
    {
      type: 'object',
      properties: { address: { $ref: 'https://example.com/schemas/address.json' }, broken: { $ref: '#/$defs/missing' } },
    },
    { unresolvable: true },
  ),
  entry('const_values', 'const (string, number, boolean)', {
    type: 'object',
    properties: { kind: { const: 'light' }, version: { const: 2 }, confirm: { type: 'boolean', const: true } },
    required: ['kind'],
  }),
  entry('one_of', 'oneOf', {
    type: 'object',
    properties: {
      target: {
        oneOf: [
          { type: 'string', description: 'entity id' },
          { type: 'array', items: { type: 'string' } },
        ],
      },
    },
  }),
  entry('all_of_merge', 'allOf that merges', {
    type: 'object',
    properties: {
      light: {
        allOf: [
          { type: 'object', properties: { brightness: { type: 'integer', minimum: 0 } }, required: ['brightness'] },
          { properties: { brightness: { maximum: 255 }, color: { type: 'string' } } },
        ],
      },
    },
  }),
  entry('all_of_conflict', 'allOf with conflicting types', {
    type: 'object',
    properties: { weird: { allOf: [{ type: 'string' }, { type: 'integer' }] }, fine: { allOf: [{ minimum: 1 }, { maximum: 5 }, { type: 'integer' }] } },
  }),
  entry('not_keyword', 'not', {
    type: 'object',
    properties: { area: { type: 'string', not: { enum: ['garage'] } }, anything_but_null: { not: { type: 'null' } } },
  }),
  entry('nullable_type_array', 'type arrays with null', {
    type: 'object',
    properties: { note: { type: ['string', 'null'], maxLength: 100 }, count: { type: ['integer', 'null'], minimum: 0 } },
  }),
  entry('multi_type_array', 'type arrays of several types', {
    type: 'object',
    properties: { value: { type: ['string', 'number', 'boolean'], minLength: 1, minimum: -5 }, id: { type: ['integer', 'string', 'null'] } },
  }),
  entry('openapi_nullable', 'OpenAPI nullable: true', {
    type: 'object',
    properties: { area: { type: 'string', nullable: true } },
  }),
  entry('additional_false', 'additionalProperties: false', {
    type: 'object',
    additionalProperties: false,
    properties: { on: { type: 'boolean' }, opts: { type: 'object', properties: { fade: { type: 'number' } }, additionalProperties: false } },
  }),
  entry('additional_schema', 'additionalProperties as a schema (a dictionary)', {
    type: 'object',
    properties: {
      attributes: { type: 'object', additionalProperties: { type: 'string' }, description: 'Attribute map' },
      extra: { type: 'object', additionalProperties: true },
    },
  }),
  entry('array_without_items', 'arrays without items', {
    type: 'object',
    properties: { tags: { type: 'array' }, matrix: { type: 'array', items: { type: 'array' } } },
  }),
  entry('numeric_enum', 'numeric enums', {
    type: 'object',
    properties: { speed: { type: 'integer', enum: [1, 2, 3] }, ratio: { type: 'number', enum: [0.5, 1, 1.5] }, untyped: { enum: [10, 20] } },
  }),
  entry('boolean_enum', 'boolean enums', {
    type: 'object',
    properties: { only_true: { type: 'boolean', enum: [true] }, both: { enum: [true, false] } },
  }),
  entry('mixed_enum', 'enum mixing strings, numbers, null', {
    type: 'object',
    properties: { level: { enum: ['auto', 1, 2, null] }, mode: { type: ['string', 'integer'], enum: ['eco', 0] } },
  }),
  entry('format_values', 'format values Gemini does and does not accept', {
    type: 'object',
    properties: {
      when: { type: 'string', format: 'date-time' },
      url: { type: 'string', format: 'uri' },
      mail: { type: 'string', format: 'email' },
      id: { type: 'string', format: 'uuid' },
      small: { type: 'integer', format: 'int32' },
      big: { type: 'integer', format: 'int64' },
      ratio: { type: 'number', format: 'float' },
      odd: { type: 'number', format: 'decimal' },
    },
  }),
  entry('nesting_six_deep', 'nesting 6 deep', {
    type: 'object',
    properties: {
      l1: {
        type: 'object',
        properties: {
          l2: {
            type: 'object',
            properties: {
              l3: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    l4: { type: 'object', properties: { l5: { type: 'object', properties: { l6: { type: 'string', enum: ['deep'] } }, required: ['l6'] } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  }),
  entry('bad_property_names', 'property names that break Gemini parameter-name rule', {
    type: 'object',
    properties: {
      'entity-id': { type: 'string' },
      'light.brightness': { type: 'integer' },
      '9am': { type: 'boolean' },
      'with space': { type: 'string' },
      ['p'.repeat(70)]: { type: 'string' },
      nested: { type: 'object', properties: { 'x-y': { type: 'number' } }, required: ['x-y'] },
    },
    required: ['entity-id'],
  }),
  entry('tool.with.dots', 'tool name with dots', { type: 'object', properties: {} }),
  entry('tool with spaces', 'tool name with spaces', { type: 'object', properties: {} }),
  entry('ns:tool:colon', 'tool name with colons', { type: 'object', properties: {} }),
  entry('3d_printer_status', 'tool name with a leading digit', { type: 'object', properties: {} }),
  entry('t'.repeat(40) + '_' + 'u'.repeat(59), 'tool name of 100 characters', { type: 'object', properties: {} }),
  entry('t'.repeat(40) + '_' + 'u'.repeat(58) + 'v', 'second 100-character name sharing the first 99', { type: 'object', properties: {} }),
  entry('light.turn_on', 'collides with light_turn_on after sanitising', { type: 'object', properties: {} }),
  entry('light_turn_on', 'collides with light.turn_on (already valid)', { type: 'object', properties: {} }),
  entry('light-turn-on', 'collides with both above', { type: 'object', properties: {} }),
  entry('cover:open', 'collides with cover/open', { type: 'object', properties: {} }),
  entry('cover/open', 'collides with cover:open', { type: 'object', properties: {} }),
  entry(
    'exclusive_bounds',
    'exclusiveMinimum/Maximum, both draft styles',
    {
      type: 'object',
      properties: { positive: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 }, draft4: { type: 'number', minimum: 0, exclusiveMinimum: true } },
    },
    { unresolvable: true },
  ),
  entry('multiple_of', 'multipleOf', { type: 'object', properties: { step: { type: 'integer', multipleOf: 5, minimum: 0, maximum: 100 } } }),
  entry('examples_keyword', 'examples', { type: 'object', properties: { city: { type: 'string', examples: ['Paris', 'Berlin'] } } }),
  entry('pattern_properties', 'patternProperties', {
    type: 'object',
    properties: { labels: { type: 'object', patternProperties: { '^[a-z]+$': { type: 'string' } } } },
  }),
  entry('tuple_items', 'draft-07 tuple items and prefixItems', {
    type: 'object',
    properties: { rgb: { type: 'array', items: [{ type: 'integer' }, { type: 'integer' }, { type: 'integer' }], minItems: 3 } },
  }),
  entry('prefix_items', '2020-12 prefixItems', {
    type: 'object',
    properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
  }),
  entry('root_any_of_required', 'top-level anyOf of required sets (at least one of)', {
    type: 'object',
    properties: { title: { type: 'string' }, status: { type: 'string' }, id: { type: 'string' } },
    required: ['id'],
    anyOf: [{ required: ['title'] }, { required: ['status'] }],
  }),
  entry('root_one_of_objects', 'top-level oneOf of object shapes', {
    type: 'object',
    oneOf: [
      { properties: { yaml: { type: 'string' } }, required: ['yaml'] },
      { properties: { files: { type: 'array', items: { type: 'string' } } }, required: ['files'] },
    ],
  }),
  entry('root_all_of', 'top-level allOf', {
    allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } } }],
  }),
  entry('vendor_keys', 'x-* vendor keys and a property NAMED x-header', {
    type: 'object',
    'x-mcp-header': 'X-Api',
    properties: { 'x-header': { type: 'string', 'x-internal': true }, q: { type: 'string', 'x-order': 1 } },
  }),
  entry('dialect_and_ids', '$schema, $id, $comment', {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://example.com/tool.json',
    $comment: 'generated',
    type: 'object',
    properties: { q: { type: 'string', $comment: 'query' } },
  }),
  entry('no_root_type', 'root without type and properties', {}),
  entry('root_only_required', 'root with required but no properties', { type: 'object', required: ['ghost'] }),
  entry('if_then_else', 'if/then/else', {
    type: 'object',
    properties: { unit: { type: 'string', enum: ['c', 'f'] }, value: { type: 'number' } },
    if: { properties: { unit: { const: 'c' } } },
    then: { properties: { value: { maximum: 40 } } },
    else: { properties: { value: { maximum: 104 } } },
  }),
  entry('dependent_required', 'dependentRequired and dependencies', {
    type: 'object',
    properties: { start: { type: 'string' }, end: { type: 'string' }, tz: { type: 'string' } },
    dependentRequired: { start: ['end'] },
    dependencies: { tz: ['start'] },
  }),
  entry('array_constraints', 'uniqueItems, contains, min/maxItems', {
    type: 'object',
    properties: { ids: { type: 'array', items: { type: 'integer' }, uniqueItems: true, contains: { minimum: 10 }, minItems: 1, maxItems: 5 } },
  }),
  entry('required_undeclared', 'required naming an undeclared property', {
    type: 'object',
    properties: { a: { type: 'string' } },
    required: ['a', 'b'],
  }),
  entry('empty_any_of_branch', 'an empty {} anyOf branch (HA GetLiveContext.domain)', {
    type: 'object',
    properties: { domain: { anyOf: [{}, { type: 'array', items: { type: 'string' } }], description: 'One domain or a list' } },
  }),
  entry('boolean_schemas', 'true/false as schemas', {
    type: 'object',
    properties: { anything: true, nothing: false, list: { type: 'array', items: true } },
  }),
  entry('enum_without_type', 'string enum without type', { type: 'object', properties: { color: { enum: ['red', 'blue'] } } }),
  entry('any_of_with_null', 'anyOf with a null branch', {
    type: 'object',
    properties: {
      due: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
      limit: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['all'] }, { type: 'null' }] },
    },
  }),
  entry('any_of_under_object', 'anyOf of required sets under a typed parent object', {
    type: 'object',
    properties: {
      target: {
        type: 'object',
        properties: { entity_id: { type: 'string' }, area_id: { type: 'string' } },
        anyOf: [{ required: ['entity_id'] }, { required: ['area_id'] }],
      },
    },
  }),
  entry('annotations', 'deprecated, readOnly, writeOnly, title, default', {
    type: 'object',
    properties: { old: { type: 'string', deprecated: true, readOnly: true, title: 'Old', default: 'x' }, secret: { type: 'string', writeOnly: true } },
  }),
  entry('property_names', 'propertyNames and min/maxProperties', {
    type: 'object',
    properties: { map: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, minProperties: 1, maxProperties: 3 } },
  }),
  entry('empty_description', 'empty description', { type: 'object', properties: { a: { type: 'string' } } }, { description: '' }),
  entry('nested_defs', '$defs inside a property, referenced by pointer', {
    type: 'object',
    properties: {
      cfg: { type: 'object', $defs: { mode: { type: 'string', enum: ['a', 'b'] } }, properties: { mode: { $ref: '#/properties/cfg/$defs/mode' } } },
    },
  }),
  entry('nested_any_of', 'anyOf inside anyOf and inside items', {
    type: 'object',
    properties: {
      v: {
        anyOf: [
          { anyOf: [{ type: 'string' }, { type: 'number' }] },
          { type: 'array', items: { anyOf: [{ type: 'boolean' }, { type: 'object', properties: { k: { type: 'string' } } }] } },
        ],
      },
    },
  }),
  entry('unevaluated', 'unevaluatedProperties and dependentSchemas', {
    type: 'object',
    properties: { a: { type: 'string' } },
    unevaluatedProperties: false,
    dependentSchemas: { a: { properties: { b: { type: 'number' } } } },
  }),
  entry(
    'draft03_required',
    'draft-03 boolean required on properties',
    {
      type: 'object',
      properties: { name: { type: 'string', required: true }, area: { type: 'string', required: false } },
    },
    { unresolvable: true },
  ),
  entry(
    'bad_type_names',
    'type names that are not JSON Schema (int, float, STRING, "enum")',
    {
      type: 'object',
      properties: { n: { type: 'int' }, f: { type: 'float' }, s: { type: 'STRING' }, e: { type: 'enum', enum: ['a', 'b'] } },
    },
    { unresolvable: true },
  ),
  entry(
    'proto_keys',
    'property names __proto__ and constructor (own keys from JSON.parse)',
    JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"integer"},"toString":{"type":"boolean"}},"required":["__proto__","constructor"]}',
    ),
  ),
  entry('__proto__', 'a tool named __proto__ (a valid declared name)', { type: 'object', properties: {} }),
  entry(
    'malformed_keyword_values',
    'keyword values of the wrong JSON type and an invalid regex',
    {
      type: 'object',
      properties: {
        level: { type: 'integer', minimum: '0', maximum: '100', multipleOf: 0 },
        code: { type: 'string', pattern: '^(', maxLength: -1 },
        mode: { type: 'string', enum: 'eco' },
        extra: { type: 'object', additionalProperties: 'false', required: 'x' },
        loose: 'string',
        tags: { type: 'array', items: [], uniqueItems: 'yes', enum: [['a'], ['a']] },
      },
      required: ['level', 7],
    },
    { unresolvable: true },
  ),
  entry('content_keywords', 'contentMediaType / contentEncoding', {
    type: 'object',
    properties: { image: { type: 'string', contentMediaType: 'image/png', contentEncoding: 'base64' } },
  }),
];

export const ADVERSARIAL_TOOLS: Tool[] = ADVERSARIAL.map((a) => a.tool);
