// The package's one secret scrubber (src/secrets.ts): every written form of a registered secret is
// masked, `Bearer <anything>` is masked, values are copied only where they change, and a secret
// stops being masked once every node that registered it has released it.
import assert from 'node:assert/strict';
import { SecretScrubber } from '../../src/secrets';

describe('secret scrubber', () => {
  const secret = 'tok en/+=&"x';

  it('masks the plain, URL-encoded, form-encoded and JSON-escaped forms', () => {
    const s = new SecretScrubber();
    s.register([secret]);
    const text = [secret, encodeURIComponent(secret), new URLSearchParams({ t: secret }).toString(), JSON.stringify({ t: secret })].join(' | ');
    const out = s.scrub(text);
    assert.ok(!out.includes(secret), out);
    assert.ok(!out.includes(encodeURIComponent(secret)), out);
    assert.ok(!out.includes(new URLSearchParams({ t: secret }).toString().slice(2)), out);
    assert.ok(!out.includes(JSON.stringify(secret).slice(1, -1)), out);
    assert.equal(out.split('***').length - 1, 4, out);
  });

  it('masks any Bearer token, registered or not, in its header and URL-encoded forms', () => {
    const s = new SecretScrubber();
    assert.equal(s.scrub('authorization=Bearer abc.DEF-123_x='), 'authorization=Bearer ***');
    assert.equal(s.scrub('h=Bearer%20abc123'), 'h=Bearer%20***');
  });

  it('copies only the objects on a path to a changed string and keeps class instances', () => {
    const s = new SecretScrubber();
    s.register(['sekrit-value']);
    const buffer = Buffer.from('sekrit-value');
    const untouched = { a: 1, b: ['x'] };
    const msg = { payload: { text: 'the key is sekrit-value' }, untouched, buffer };
    const out = s.scrubValue(msg);
    assert.notEqual(out, msg);
    assert.equal(out.payload.text, 'the key is ***');
    assert.equal(msg.payload.text, 'the key is sekrit-value', 'the original is not changed');
    assert.equal(out.untouched, untouched);
    assert.equal(out.buffer, buffer);
    const cyclic: Record<string, unknown> = { name: 'sekrit-value' };
    cyclic.self = cyclic;
    assert.equal((s.scrubValue(cyclic) as Record<string, unknown>).name, '***');
  });

  it('masks an object the message holds twice in both places, and walks cycles once', () => {
    const s = new SecretScrubber();
    s.register(['sekrit-value']);
    const shared = { header: 'sekrit-value' };
    const list = ['sekrit-value'];
    const msg = { first: shared, second: shared, lists: [list, list] };
    const out = s.scrubValue(msg);
    assert.equal(out.first.header, '***');
    assert.equal(out.second.header, '***', 'the second path to the same object is masked too');
    assert.equal(out.first, out.second, 'one copy for one original');
    assert.deepEqual(out.lists, [['***'], ['***']]);
    assert.equal(shared.header, 'sekrit-value', 'the original is not changed');
    const ring: Record<string, unknown> = { text: 'Bearer abc123', items: [] as unknown[] };
    (ring.items as unknown[]).push(ring, { back: ring });
    const scrubbed = s.scrubValue(ring);
    assert.equal(scrubbed.text, 'Bearer ***');
    assert.equal((ring.items as unknown[]).length, 2, 'a cycle ends the walk');
  });

  it('keeps masking until the last registration of a secret is released', () => {
    const s = new SecretScrubber();
    const first = s.register(['shared-secret']);
    const second = s.register(['shared-secret']);
    first();
    assert.equal(s.scrub('shared-secret'), '***');
    second();
    assert.equal(s.scrub('shared-secret'), 'shared-secret');
  });

  it('scrubs an error in place, message, stack and short status', () => {
    const s = new SecretScrubber();
    s.register(['sekrit-value']);
    const err = Object.assign(new Error('HTTP 500: echo sekrit-value'), { status: 'sekrit-value' });
    const same = s.scrubError(err);
    assert.equal(same, err);
    assert.equal(err.message, 'HTTP 500: echo ***');
    assert.ok(!err.stack!.includes('sekrit-value'));
    assert.equal(err.status, '***');
  });
});
