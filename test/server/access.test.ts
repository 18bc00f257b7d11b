// The access rules that need no runtime: which addresses count as the local network (an anonymous
// endpoint serves only those), and token matching.
import assert from 'node:assert/strict';
import { isLocalNetworkAddress, tokenMatcher } from '../../src/server/http/access';

describe('endpoint access rules', () => {
  it('treats loopback, private, link-local and ULA addresses as local, everything else as remote', () => {
    for (const a of [
      '127.0.0.1',
      '::1',
      '::ffff:192.168.1.20',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.0.9',
      '169.254.1.1',
      'fd12:3456::1',
      'fe80::1',
    ]) {
      assert.equal(isLocalNetworkAddress(a), true, a);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '::ffff:1.2.3.4', '2001:db8::1', '100.64.0.1', undefined, '']) {
      assert.equal(isLocalNetworkAddress(a), false, String(a));
    }
  });

  it('matches only configured tokens, exactly', () => {
    const matches = tokenMatcher(['alpha', 'beta-token']);
    assert.equal(matches('alpha'), true);
    assert.equal(matches('beta-token'), true);
    assert.equal(matches('alph'), false);
    assert.equal(matches('alpha '), false);
    assert.equal(tokenMatcher([])('anything'), false);
  });
});
