// An earlier Kotlin transformer's Gemini Schema output for HassTurnOn, HassSetVolume and
// describe_doorbell, transcribed below. Our gemini-schema output must say at least as much; where
// that transformer lost meaning (it cut anyOf to its first branch) ours must keep it.
import assert from 'node:assert/strict';
import { compileTools } from '../../src/schema';
import { homeAssistantTools } from './corpus';

type Schema = Record<string, any>;

/** The earlier transformer's output (an enum list ending in `...` there = "at least these"). */
const SEED: Record<string, { description: string | RegExp; properties: Record<string, Schema>; required: string[] }> = {
  HassTurnOn: {
    description: /^Turns on\/opens\/presses a device or entity/,
    properties: {
      name: { type: 'STRING' },
      area: { type: 'STRING' },
      floor: { type: 'STRING' },
      domain: { type: 'ARRAY', items: { type: 'STRING' } },
      device_class: { type: 'ARRAY', items: { type: 'STRING', enum: ['tv', 'speaker', 'outlet'] } },
    },
    required: [],
  },
  HassSetVolume: {
    description: 'Sets the volume percentage of a media player',
    properties: {
      name: { type: 'STRING' },
      area: { type: 'STRING' },
      floor: { type: 'STRING' },
      domain: { type: 'ARRAY', items: { type: 'STRING' } },
      device_class: { type: 'ARRAY', items: { type: 'STRING' } },
      volume_level: { type: 'INTEGER', description: 'The volume percentage of the media player', minimum: 0, maximum: 100 },
    },
    required: [],
  },
  describe_doorbell: { description: 'No description provided', properties: {}, required: [] },
};

/** `actual` carries every fact `expected` states (enums: a superset). */
function atLeastAsInformative(actual: Schema | undefined, expected: Schema, where: string): void {
  assert.ok(actual, `${where} is missing`);
  for (const [key, value] of Object.entries(expected)) {
    if (key === 'enum') for (const v of value) assert.ok(actual[key]?.includes(v), `${where}.enum lacks ${v}`);
    else if (key === 'items') atLeastAsInformative(actual.items, value, `${where}.items`);
    else assert.deepEqual(actual[key], value, `${where}.${key}`);
  }
}

describe("schema compiler: the earlier transformer's examples come out at least as informative", function () {
  const tools = homeAssistantTools();
  const compiled = compileTools(tools, 'gemini-schema');
  const decls: Schema[] = (compiled.payload as { functionDeclarations: Schema[] }).functionDeclarations;
  const byName = (name: string) => decls.find((d) => d.name === name)!;

  for (const [name, seed] of Object.entries(SEED)) {
    it(`${name}`, function () {
      const decl = byName(name);
      assert.ok(decl, `${name} declared`);
      if (seed.description instanceof RegExp) assert.match(decl.description, seed.description);
      else assert.equal(decl.description, seed.description);
      assert.equal(decl.parameters.type, 'OBJECT');
      assert.deepEqual(decl.parameters.required ?? [], seed.required);
      for (const [prop, expected] of Object.entries(seed.properties)) atLeastAsInformative(decl.parameters.properties[prop], expected, `${name}.${prop}`);
      if (name === 'describe_doorbell') assert.deepEqual(decl.parameters.properties, {});
    });
  }

  it('HassSetVolumeRelative keeps both anyOf branches the earlier transformer cut to one', function () {
    const step = byName('HassSetVolumeRelative').parameters.properties.volume_step;
    assert.deepEqual(step.anyOf, [
      { type: 'STRING', enum: ['up', 'down'] },
      { type: 'INTEGER', minimum: -100, maximum: 100 },
    ]);
  });

  it('keeps HA descriptions, enums, defaults and nested required of every tool', function () {
    const todo = byName('todo_get_items').parameters.properties;
    assert.deepEqual(todo.status, {
      type: 'STRING',
      enum: ['needs_action', 'completed', 'all'],
      default: 'needs_action',
      description: 'Filter returned items by status, by default returns incomplete items',
    });
    const options = byName('announce').parameters.properties.options;
    assert.deepEqual(options.required, ['priority']);
    assert.match(byName('announce').parameters.properties.channels.description, /Items must be unique/);
  });

  it('gemini (parametersJsonSchema) carries every HA input schema unchanged', function () {
    const { payload } = compileTools(tools, 'gemini');
    const json = (payload as { functionDeclarations: Schema[] }).functionDeclarations;
    tools.forEach((tool, i) => assert.deepEqual(json[i].parametersJsonSchema, tool.inputSchema, tool.name));
  });
});
