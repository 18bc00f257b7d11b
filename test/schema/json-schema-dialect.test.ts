// The engine's one Ajv setup: dialect choice, formats, readable errors, and compiling the same
// schema (same $id) any number of times, as refreshed tool lists and several servers do.
import assert from 'node:assert/strict';
import { ajvFor, compileArgumentCheck, metaSchemaProblems } from '../../src/schema/json-schema-dialect';
import { schemaProblems, validateArguments } from '../../src/mcp/call/argument-validator';
import { flowToolSettings } from '../../src/server/flows/flow-tool';

describe('json-schema-dialect: the one Ajv setup', () => {
  it('picks draft-07 for a declared draft-07 schema or tuple items, 2020-12 otherwise', () => {
    const draft07 = ajvFor({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
    assert.equal(ajvFor({ type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } }), draft07);
    assert.notEqual(ajvFor({ type: 'object' }), draft07);
  });

  it('checks tuple items, prefixItems and formats, with dotted paths and the reason', () => {
    const tuple = compileArgumentCheck({ type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } });
    assert.equal(tuple({ t: [1] }), 't.0: must be string');
    const prefix = compileArgumentCheck({ type: 'object', properties: { t: { type: 'array', prefixItems: [{ type: 'integer' }] } } });
    assert.equal(prefix({ t: ['x'] }), 't.0: must be integer');
    const dated = compileArgumentCheck({ type: 'object', properties: { when: { type: 'string', format: 'date-time' } } });
    assert.equal(dated({ when: '2025-12-22T15:00:00Z' }), undefined);
    assert.equal(dated({ when: 'tomorrow' }), 'when: must match format "date-time"');
  });

  it('names required, unknown and enum violations the same way for client and endpoint', () => {
    const schema = { type: 'object', properties: { mode: { enum: ['a', 'b'] } }, required: ['mode'], additionalProperties: false };
    const tool = { name: 't', inputSchema: schema } as unknown as Parameters<typeof validateArguments>[0];
    assert.equal(validateArguments(tool, {}), 'mode: is required');
    assert.equal(validateArguments(tool, { mode: 'c', x: 1 }), '(arguments): unknown property "x"; mode: must be one of ["a","b"]');
    const endpoint = flowToolSettings({ name: 't', inputSchema: JSON.stringify(schema) });
    assert.equal(endpoint.check({ mode: 'c', x: 1 }), validateArguments(tool, { mode: 'c', x: 1 }));
  });

  it('compiles a schema with the same $id again and again (refreshed lists, two servers)', () => {
    const schema = () => ({
      $id: 'https://example.test/light',
      type: 'object',
      properties: { on: { type: 'boolean' }, kids: { type: 'array', items: { $ref: '#' } } },
    });
    for (let i = 0; i < 3; i++) {
      assert.equal(schemaProblems(schema(), { on: 'yes' }), 'on: must be boolean', `compile ${i + 1}`);
      assert.equal(compileArgumentCheck(schema())({ kids: [{ on: 1 }] }), 'kids.0.on: must be boolean', `compile ${i + 1}`);
    }
  });

  it('throws the compiler reason for a schema no dialect accepts; the client then leaves judging to the server', () => {
    const broken = { type: 'object', properties: { a: { type: 'strin' } } };
    assert.throws(() => compileArgumentCheck(broken), /schema is invalid: data\/properties\/a\/type/);
    assert.throws(() => flowToolSettings({ name: 't', inputSchema: broken }), /input schema does not compile: schema is invalid/);
    assert.equal(schemaProblems(broken, { a: 1 }), undefined);
    assert.deepEqual(metaSchemaProblems({ type: 'object' }), []);
    assert.match(metaSchemaProblems(broken).join('\n'), /properties\/a\/type/);
  });
});
