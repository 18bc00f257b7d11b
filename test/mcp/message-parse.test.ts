// The build makes the SDK check each message it reads with src/mcp/message-parse.ts instead of its
// union of four schemas. It must answer exactly as the union: the same parsed message for every
// message the union accepts, and the same error for every one it refuses.
import assert from 'node:assert/strict';
import { parseMessage, type MessageSchemas } from '../../src/mcp/message-parse';

const core = require('@modelcontextprotocol/core/internal') as MessageSchemas;

const outcome = (parse: () => unknown) => {
  try {
    return { ok: parse() };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
};

describe('message parse: the likely schema first, the same answer as the SDK', () => {
  const serverInfo = { name: 'srv', version: '1', extra: 'dropped by the schema' };
  const messages: Record<string, unknown> = {
    request: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: { a: 1 }, _meta: { progressToken: 3 } } },
    'request, string id': { jsonrpc: '2.0', id: 'x', method: 'ping' },
    notification: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 3, progress: 1 } },
    result: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }], _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } } },
    'result with a broken serverInfo (the schema drops it)': { jsonrpc: '2.0', id: 2, result: { _meta: { 'io.modelcontextprotocol/serverInfo': 7 } } },
    'empty result': { jsonrpc: '2.0', id: 3, result: {} },
    error: { jsonrpc: '2.0', id: 4, error: { code: -32601, message: 'Method not found', data: { m: 'x' } } },
    'error without id': { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
    // Refused by the union: each must fail as the SDK fails.
    'request with a null id': { jsonrpc: '2.0', id: null, method: 'ping' },
    'request with a fractional id': { jsonrpc: '2.0', id: 1.5, method: 'ping' },
    'request with an extra key': { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
    'notification with a result': { jsonrpc: '2.0', method: 'x', result: {} },
    'result and error': { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } },
    'result that is an array': { jsonrpc: '2.0', id: 1, result: [] },
    'wrong version': { jsonrpc: '1.0', id: 1, result: {} },
    'error with a string code': { jsonrpc: '2.0', id: 1, error: { code: '1', message: 'm' } },
    'no jsonrpc': { id: 1, result: {} },
    'nothing known': { jsonrpc: '2.0', id: 1 },
    batch: [{ jsonrpc: '2.0', id: 1, result: {} }],
    null: null,
    string: 'hello',
    number: 42,
  };

  for (const [name, message] of Object.entries(messages)) {
    it(`${name}`, () => {
      const theirs = outcome(() => core.JSONRPCMessageSchema.parse(structuredClone(message)));
      const mine = outcome(() => parseMessage(core, structuredClone(message)));
      assert.deepEqual(mine, theirs);
    });
  }

  it('covers messages the SDK accepts and messages it refuses, and one the schema changes', () => {
    const results = Object.values(messages).map((m) => outcome(() => core.JSONRPCMessageSchema.parse(structuredClone(m))));
    assert.ok(results.filter((r) => 'ok' in r).length >= 8);
    assert.ok(results.filter((r) => 'error' in r).length >= 10);
    const parsed = core.JSONRPCMessageSchema.parse(structuredClone(messages.result)) as { result: { _meta: Record<string, unknown> } };
    assert.deepEqual(parsed.result._meta['io.modelcontextprotocol/serverInfo'], { name: 'srv', version: '1' }, 'the parse output is not the input');
  });
});
