// The endpoint's Request is a head only (src/server/http/request-head.ts): method, URL, headers and signal
// without undici's constructor. It must still be a Request to whoever holds it: everything else a
// Request has answers as a real one would, made on first use.
import assert from 'node:assert/strict';
import { RequestHead } from '../../src/server/http/request-head';

describe('RequestHead', () => {
  const make = () => {
    const controller = new AbortController();
    const headers = new Headers({ 'content-type': 'application/json', 'mcp-session-id': 's1' });
    const head = new RequestHead('http://node-red.invalid/mcp?x=1', 'POST', headers, controller.signal) as unknown as Request;
    return { head, controller, headers };
  };

  it('is a Request with the method, URL, headers and signal it was given', () => {
    const { head, controller, headers } = make();
    assert.ok(head instanceof Request);
    assert.equal(Object.prototype.toString.call(head), '[object Request]');
    assert.equal(head.method, 'POST');
    assert.equal(new URL(head.url).pathname, '/mcp');
    assert.equal(head.headers, headers);
    assert.equal(head.headers.get('mcp-session-id'), 's1');
    assert.equal(head.signal.aborted, false);
    controller.abort(new Error('client left'));
    assert.equal(head.signal.aborted, true);
  });

  it('answers the rest of a Request as a real one does', async () => {
    const { head } = make();
    const real = new Request('http://node-red.invalid/mcp?x=1', { method: 'POST', headers: head.headers });
    for (const name of [
      'cache',
      'credentials',
      'mode',
      'redirect',
      'referrer',
      'referrerPolicy',
      'integrity',
      'keepalive',
      'destination',
      'bodyUsed',
      'duplex',
    ] as const) {
      assert.deepEqual(head[name as keyof Request], real[name as keyof Request], name);
    }
    assert.equal(head.body, null);
    assert.equal(await head.text(), '');
    const copy = head.clone();
    assert.ok(copy instanceof Request);
    assert.deepEqual([copy.method, copy.url, copy.headers.get('content-type')], ['POST', head.url, 'application/json']);
  });

  it('keeps following the signal in the Request it makes for the rest', () => {
    const { head, controller } = make();
    const copy = head.clone(); // made from the full Request, which follows the head's signal
    controller.abort(new Error('client left'));
    assert.equal(copy.signal.aborted, true);
  });
});
