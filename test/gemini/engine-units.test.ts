// Engine pieces that need no runtime: unwrapping the SDK's error text (the exact shapes of
// reference gemini-api.md §9.5), history trimming and context keys.
import assert from 'node:assert/strict';
import { toGeminiError, unwrapGeminiMessage } from '../../src/gemini/errors';
import { contextKey, promptContents, sessionKey, trimHistory } from '../../src/gemini/memory';

describe('gemini engine: error text and memory helpers', () => {
  it('unwraps the two-level message the SDK builds for a text/event-stream error body', () => {
    const inner = JSON.stringify({ error: { code: 404, message: 'models/nope is not found for API version v1beta', status: 'NOT_FOUND' } }, null, 2);
    const sdkMessage = JSON.stringify({ error: { message: inner, code: 404, status: 'Not Found' } });
    assert.deepEqual(unwrapGeminiMessage(sdkMessage), { code: 404, status: 'NOT_FOUND', message: 'models/nope is not found for API version v1beta' });
  });

  it('unwraps the one-level JSON message and the mid-stream "got status" form', () => {
    assert.equal(unwrapGeminiMessage('{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}').message, 'quota');
    assert.equal(unwrapGeminiMessage('got status: INTERNAL. {"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}').status, 'INTERNAL');
    assert.equal(unwrapGeminiMessage('plain text').message, 'plain text');
  });

  it('scrubs the key from an ApiError message', () => {
    const err = Object.assign(new Error('{"error":{"code":400,"message":"bad key SECRET-KEY-123","status":"INVALID_ARGUMENT"}}'), {
      name: 'ApiError',
      status: 400,
    });
    const e = toGeminiError(err, { secrets: ['SECRET-KEY-123'] });
    assert.equal(e.message, 'Gemini API error 400 INVALID_ARGUMENT: bad key ***');
    assert.equal(e.status, '400 bad request');
  });

  it('trims history to whole turns, never splitting a call from its responses', () => {
    const u = (t: string) => ({ role: 'user', parts: [{ text: t }] });
    const m = (t: string) => ({ role: 'model', parts: [{ text: t }] });
    const call = { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] };
    const resp = { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 1 } } }] };
    const h = [u('1'), m('a'), u('2'), call, resp, m('b'), u('3'), m('c')];
    assert.deepEqual(trimHistory(h, 2), [u('2'), call, resp, m('b'), u('3'), m('c')]);
    assert.deepEqual(trimHistory(h, 5), h);
    assert.deepEqual(trimHistory(h, 0), []);
  });

  it('names sessions and context keys', () => {
    assert.equal(sessionKey(undefined, undefined), 'default');
    assert.equal(sessionKey('', 'topic'), 'topic');
    assert.equal(sessionKey(7, 'topic'), '7');
    assert.equal(contextKey('a.b[c]'), 'gemini_history_a%2Eb%5Bc%5D');
    assert.equal(promptContents('  '), undefined);
    assert.deepEqual(promptContents([{ parts: [{ text: 'x' }] }]), [{ role: 'user', parts: [{ text: 'x' }] }]);
  });
});
