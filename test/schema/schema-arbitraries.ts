// fast-check generators for the meaning-kept properties: random non-recursive JSON schemas, and
// values shaped after a schema (so that a good share of them satisfy it).
import fc from 'fast-check';

type Schema = Record<string, unknown>;
const KEYS = ['a', 'b', 'c', 'name', 'e-f', 'x-y', 'g.h', '9z'];

const scalar = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 5 }),
  fc.boolean(),
  fc.constant(null),
  fc.double({ min: -5, max: 5, noNaN: true }),
);

const stringSchema = fc.record(
  {
    type: fc.constant('string'),
    minLength: fc.integer({ min: 0, max: 3 }),
    maxLength: fc.integer({ min: 3, max: 8 }),
    enum: fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 4 }),
    format: fc.constantFrom('date-time', 'uri', 'email', 'entity_id'),
    description: fc.constantFrom('text', 'a name'),
    examples: fc.array(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: ['type'] },
);

const numberSchema = fc.record(
  {
    type: fc.constantFrom('integer', 'number'),
    minimum: fc.integer({ min: -10, max: 0 }),
    maximum: fc.integer({ min: 0, max: 50 }),
    exclusiveMinimum: fc.integer({ min: -12, max: 1 }),
    exclusiveMaximum: fc.integer({ min: 10, max: 60 }),
    multipleOf: fc.constantFrom(2, 5),
    enum: fc.uniqueArray(fc.integer({ min: -3, max: 30 }), { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: ['type'] },
);

const leaf: fc.Arbitrary<Schema> = fc.oneof(
  stringSchema,
  numberSchema,
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: 'null' }),
  scalar.map((v) => ({ const: v })),
  fc.uniqueArray(scalar, { minLength: 1, maxLength: 4, selector: (v) => JSON.stringify(v) }).map((values) => ({ enum: values })),
  fc.constant({}),
  fc.constant({ description: 'anything' }),
  fc.subarray(['string', 'integer', 'number', 'boolean', 'null', 'array', 'object'], { minLength: 2, maxLength: 3 }).map((type) => ({ type })),
  fc.constant({ type: 'string', nullable: true }),
  fc.constant({ type: 'object', additionalProperties: { type: 'integer' } }),
);

/** Random non-recursive schemas: nested objects, arrays, anyOf/oneOf/allOf/not, additionalProperties, vendor keys. */
export const { schema: schemaArb } = fc.letrec<{ schema: Schema; object: Schema; array: Schema; combinator: Schema }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('object'), tie('array'), tie('combinator')),
  object: fc
    .tuple(
      fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 4, noNullPrototype: true }),
      fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
      fc.option(fc.oneof(fc.boolean(), tie('schema')), { nil: undefined }),
      fc.boolean(),
    )
    .map(([properties, flags, additionalProperties, vendor]) => {
      const out: Schema = { type: 'object', properties, required: Object.keys(properties).filter((_, i) => flags[i]) };
      if (additionalProperties !== undefined) out.additionalProperties = additionalProperties;
      if (vendor) out['x-vendor'] = { note: 'dropped' };
      return out;
    }),
  array: fc
    .record(
      { items: tie('schema'), minItems: fc.integer({ min: 0, max: 2 }), maxItems: fc.integer({ min: 2, max: 4 }), uniqueItems: fc.boolean() },
      { requiredKeys: [] },
    )
    .map((r) => ({ type: 'array', ...r })),
  combinator: fc.oneof(
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((oneOf) => ({ oneOf })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 2 }).map((allOf) => ({ allOf })),
    tie('schema').map((not) => ({ type: 'string', not })),
  ),
}));

/** Tool input schemas: an object root, sometimes with $defs referenced from a property, $schema and x- keys. */
export const rootSchemaArb: fc.Arbitrary<Schema> = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...KEYS), schemaArb, { maxKeys: 4, noNullPrototype: true }),
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    fc.option(schemaArb, { nil: undefined }),
    fc.boolean(),
  )
  .map(([properties, flags, def, dialect]) => {
    const root: Schema = { type: 'object', properties: { ...properties }, required: Object.keys(properties).filter((_, i) => flags[i]) };
    if (def) {
      root.$defs = { shared: def };
      (root.properties as Schema).viaRef = { $ref: '#/$defs/shared' };
      (root.properties as Schema).viaRef2 = { $ref: '#/$defs/shared', description: 'same, described' };
    }
    if (dialect) root.$schema = 'https://json-schema.org/draft/2020-12/schema';
    return root;
  });

// Keys named like Object.prototype methods are left out: Ajv's uniqueItems comparison (fast-deep-equal)
// calls a.valueOf() and throws on {"valueOf":0}, a limit of the validator, not of the compiler under test.
const anyJson = fc.jsonValue({ maxDepth: 2 }).filter((v) => !/"(valueOf|toString)":/.test(JSON.stringify(v)));

function resolve(root: Schema, ref: string): unknown {
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = (node as Schema)?.[part];
  return node;
}

/** Values shaped after the schema; they are filtered by a validator before use, so rough is fine. */
export function instanceArb(schema: unknown, root: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 8 || typeof schema !== 'object' || schema === null) return anyJson;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') return instanceArb(resolve(root, s.$ref), root, depth + 1);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...s.enum);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length) {
      const { [key]: _drop, ...rest } = s;
      return fc.oneof(...list.map((b) => instanceArb(typeof b === 'object' && b ? { ...rest, ...(b as Schema) } : b, root, depth + 1)));
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length) return instanceArb(s.allOf[0], root, depth + 1);
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : s.properties ? ['object'] : [];
  if (types.length === 0) return anyJson;
  return fc.oneof(...types.map((t) => typedInstance(s, t, root, depth)));
}

function typedInstance(s: Schema, type: string, root: Schema, depth: number): fc.Arbitrary<unknown> {
  const num = (k: string, d: number) => (typeof s[k] === 'number' ? (s[k] as number) : d);
  switch (type) {
    case 'string':
      if (s.format === 'date-time') return fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === 'uri') return fc.webUrl();
      if (s.format === 'email') return fc.emailAddress();
      return fc.string({ minLength: num('minLength', 0), maxLength: Math.max(num('maxLength', 6), num('minLength', 0)) });
    case 'integer':
    case 'number': {
      const min = Math.ceil(Math.max(num('minimum', -20), num('exclusiveMinimum', -21) + 1));
      const max = Math.floor(Math.min(num('maximum', 60), num('exclusiveMaximum', 61) - 1));
      const m = num('multipleOf', 1);
      const ints = fc.integer({ min: Math.min(min, max), max: Math.max(min, max) }).map((x) => Math.round(x / m) * m);
      return type === 'integer' ? ints : fc.oneof(ints, fc.double({ min: Math.min(min, max), max: Math.max(min, max), noNaN: true }));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(s.items === undefined ? anyJson : instanceArb(s.items, root, depth + 1), {
        minLength: num('minItems', 0),
        maxLength: Math.max(num('maxItems', 3), num('minItems', 0)),
      });
    case 'object': {
      const props = (typeof s.properties === 'object' && s.properties) || {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      // "__proto__" cannot be a plain record key here; values for such schemas simply miss it.
      for (const [k, v] of Object.entries(props)) if (k !== '__proto__') model[k] = instanceArb(v, root, depth + 1);
      const required = Array.isArray(s.required) ? (s.required as string[]).filter((k) => Object.prototype.hasOwnProperty.call(model, k)) : [];
      const base = fc.record(model, { requiredKeys: required, noNullPrototype: true });
      if (s.additionalProperties === false) return base;
      return fc
        .tuple(
          base,
          fc.dictionary(fc.constantFrom('extra', 'more'), instanceArb(s.additionalProperties ?? {}, root, depth + 1), { maxKeys: 1, noNullPrototype: true }),
        )
        .map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      return anyJson;
  }
}

/** Schemas with anyOf at every non-root depth, for the "every branch kept" property. */
const typedLeaf: fc.Arbitrary<Schema> = fc.oneof(
  fc.constant({ type: 'string' }),
  fc.constant({ type: 'string', enum: ['up', 'down'] }),
  fc.constant({ type: 'integer', minimum: -100, maximum: 100 }),
  fc.constant({ type: 'number' }),
  fc.constant({ type: 'boolean' }),
  fc.constant({}),
  fc.constant({ type: 'array', items: { type: 'string' } }),
  fc.constant({ type: 'array' }),
  fc.constant({ type: 'object', properties: { k: { type: 'string' } } }),
  fc.constant({ const: 'fixed' }),
  fc.constant({ enum: [1, 2] }),
);

export const { node: anyOfNodeArb } = fc.letrec<{ node: Schema; anyOf: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    typedLeaf,
    tie('anyOf'),
    tie('node').map((items) => ({ type: 'array', items })),
    fc
      .dictionary(fc.constantFrom('p', 'q', 'r'), tie('node'), { minKeys: 1, maxKeys: 3, noNullPrototype: true })
      .map((properties) => ({ type: 'object', properties })),
  ),
  anyOf: fc
    .tuple(
      fc.array(fc.oneof(tie('node'), fc.constant({ type: 'null' })), { minLength: 1, maxLength: 4 }),
      fc.option(fc.constantFrom('union', 'one or many'), { nil: undefined }),
    )
    .map(([anyOf, description]) => (description ? { anyOf, description } : { anyOf })),
}));
