// What mcp-tool-out's message becomes on the wire (nodes/mcp-tool-out/help.html), checked against the MCP result shape.
import assert from 'node:assert/strict';
import { resultFromCaughtError, resultFromReply } from '../../src/server/reply';

describe('mcp-tool-out reply → CallToolResult', () => {
  it('maps each payload kind', () => {
    assert.deepEqual(resultFromReply({ payload: 'hi' }), { content: [{ type: 'text', text: 'hi' }] });
    assert.deepEqual(resultFromReply({ payload: { a: 1 } }), { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } });
    assert.deepEqual(resultFromReply({ payload: [1, 2] }), { content: [{ type: 'text', text: '[1,2]' }], structuredContent: { items: [1, 2] } });
    assert.deepEqual(resultFromReply({ payload: 42 }), { content: [{ type: 'text', text: '42' }] });
    assert.deepEqual(resultFromReply({ payload: undefined }), { content: [] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    assert.deepEqual(resultFromReply({ payload: png, contentType: 'image/png' }), {
      content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }],
    });
    assert.deepEqual(resultFromReply({ payload: png, contentType: 'audio/wav' }).content[0], {
      type: 'audio',
      data: png.toString('base64'),
      mimeType: 'audio/wav',
    });
    assert.deepEqual(resultFromReply({ payload: png }).content[0], {
      type: 'resource',
      resource: { uri: 'data:payload', mimeType: 'application/octet-stream', blob: png.toString('base64') },
    });
  });

  it('isError and explicit content blocks', () => {
    assert.deepEqual(resultFromReply({ payload: 'nope', isError: true }), { content: [{ type: 'text', text: 'nope' }], isError: true });
    assert.deepEqual(resultFromReply({ payload: 'ignored', isError: 'true' }).isError, undefined, 'only the boolean true marks an error');
    const content = [
      { type: 'text', text: 'a' },
      { type: 'resource', resource: { uri: 'x://y', mimeType: 'text/plain', text: 'z' } },
    ];
    assert.deepEqual(resultFromReply({ payload: { s: 1 }, content }), { content, structuredContent: { s: 1 } });
  });

  it('a caught error names the node that threw', () => {
    assert.deepEqual(resultFromCaughtError({ message: 'Error: boom', source: { id: 'f1', type: 'function', name: 'driver' } }), {
      content: [{ type: 'text', text: 'Error in node "driver" (function f1): Error: boom' }],
      isError: true,
    });
    assert.equal(resultFromCaughtError({ message: 'x', source: { id: 'f2', type: 'change' } }).content[0].type, 'text');
    assert.match(
      (resultFromCaughtError({ message: 'x', source: { id: 'f2', type: 'change' } }).content[0] as { text: string }).text,
      /^Error in node change f2: x$/,
    );
  });
});
