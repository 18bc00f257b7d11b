// The SDK's JSON answers are made as JsonAnswer in the build (src/server/http/json-answer.ts): a Response
// whose text the endpoint writes as it is. To anyone else it must be the Response that
// `Response.json()` would have made, read any way a Response can be read.
import assert from 'node:assert/strict';
import { JsonAnswer, jsonAnswer } from '../../src/server/http/json-answer';

describe('JsonAnswer', () => {
  const message = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'grüße' }] } };
  const init = { status: 200, headers: { 'Content-Type': 'application/json' } };

  it('is a Response with the status, headers and text Response.json() gives', async () => {
    const mine = jsonAnswer(message, init);
    const theirs = Response.json(message, init);
    assert.ok(mine instanceof Response);
    assert.equal(Object.prototype.toString.call(mine), '[object Response]');
    assert.deepEqual([mine.status, mine.statusText, mine.ok], [theirs.status, theirs.statusText, theirs.ok]);
    assert.deepEqual([...mine.headers], [...theirs.headers]);
    assert.equal(await mine.text(), await theirs.text());
  });

  it('answers the rest of a Response as a real one does', async () => {
    const mine = jsonAnswer(message, { status: 409, headers: { 'x-a': '1' } });
    const theirs = Response.json(message, { status: 409, headers: { 'x-a': '1' } });
    for (const name of ['type', 'url', 'redirected', 'bodyUsed', 'ok'] as const) assert.deepEqual(mine[name], theirs[name], name);
    assert.equal(mine.headers.get('content-type'), 'application/json'); // given by default, as Response.json() does
    assert.ok(mine.body instanceof ReadableStream);
    const copy = mine.clone();
    assert.deepEqual(await copy.json(), message);
    assert.deepEqual(await mine.json(), message);
    assert.equal(mine.bodyUsed, true);
    await assert.rejects(mine.text(), TypeError); // read once, as any Response
  });

  it('hands its text to the bridge only while nothing else has read it', async () => {
    const fresh = jsonAnswer(message, init);
    assert.deepEqual(JsonAnswer.unread(fresh), { body: JSON.stringify(message), headers: { 'Content-Type': 'application/json' } });
    // Headers asked for (and maybe changed) travel with the text.
    fresh.headers.set('mcp-session-id', 's1');
    assert.equal((JsonAnswer.unread(fresh)?.headers as Headers).get('mcp-session-id'), 's1');
    const read = jsonAnswer(message, init);
    await read.text();
    assert.equal(JsonAnswer.unread(read), undefined);
    assert.equal(JsonAnswer.unread(Response.json(message)), undefined);
  });

  it('refuses what Response.json() refuses, with the same kinds of error', () => {
    const cases: Array<[unknown, { status?: number }]> = [
      [undefined, {}],
      [() => 1, {}],
      [message, { status: 99 }],
      [message, { status: 600 }],
    ];
    for (const [data, options] of cases) {
      const kind = (f: () => unknown) => {
        try {
          f();
          return 'none';
        } catch (err) {
          return (err as Error).constructor.name;
        }
      };
      assert.equal(
        kind(() => jsonAnswer(data, options)),
        kind(() => Response.json(data, options)),
        JSON.stringify(options),
      );
    }
    assert.throws(() => JSON.stringify({ n: 1n }));
    assert.throws(() => jsonAnswer({ n: 1n }), TypeError);
  });

  it('leaves headers that are not a plain object to Response.json()', () => {
    const answer = jsonAnswer(message, { headers: new Headers({ 'x-b': '2' }) as unknown as Record<string, string> });
    assert.equal(JsonAnswer.unread(answer), undefined);
    assert.equal(answer.headers.get('x-b'), '2');
  });
});
