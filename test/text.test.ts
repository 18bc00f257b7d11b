// The one text-shortening rule (src/text.ts) and the places that show shortened text: statuses,
// warnings quoting values, errors quoting a server's reply.
import assert from 'node:assert/strict';
import { shorten } from '../src/text';
import { connectionError } from '../src/mcp/connection-errors';
import { describe as describeValue } from '../src/mcp/lenient/lenient-list';
import { shortStatus } from '../nodes/shared/input-handler';

describe('shorten: one rule for clipped text', () => {
  it('keeps text that fits and cuts the rest to exactly max characters ending in "…"', () => {
    assert.equal(shorten('abc', 3), 'abc');
    assert.equal(shorten('abcd', 3), 'ab…');
    assert.equal(shorten('x'.repeat(100), 40).length, 40);
    assert.equal(shorten('abc', 0), '…');
  });

  it('is what a connection error status, a status from any error and a quoted string use', () => {
    const long = 'the server said something rather long about what went wrong here';
    const error = connectionError('srv', new Error(long), 5000);
    assert.equal(error.status, shorten(long, 32));
    assert.equal(error.status.length, 32);
    assert.equal(shortStatus(new Error(long)), shorten(long, 40));
    assert.equal(describeValue('y'.repeat(50)), `the string "${'y'.repeat(39)}…"`);
    assert.equal(describeValue('short'), 'the string "short"');
  });
});
