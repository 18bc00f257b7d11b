// The clock of a call that may wait for a person follows the caller's own signal (a cancel) with one
// listener, removed when the call ends, instead of a dependent AbortSignal.any() per call; given the
// caller's own controller for the call, it uses that and makes no signal of its own.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { CallClock } from '../../src/mcp/call/call-clock';

describe('CallClock', () => {
  it("aborts with the caller's reason when the caller cancels", () => {
    const caller = new AbortController();
    const clock = new CallClock(60_000, caller.signal);
    const reason = new Error('cancelled by a message');
    caller.abort(reason);
    assert.equal(clock.signal.aborted, true);
    assert.equal(clock.signal.reason, reason);
    clock.stop();
  });

  it('is aborted from the start when the caller already was', () => {
    const caller = new AbortController();
    caller.abort(new Error('too late'));
    const clock = new CallClock(60_000, caller.signal);
    assert.equal((clock.signal.reason as Error).message, 'too late');
    clock.stop();
  });

  it("leaves no listener on the caller's signal once stopped, however many calls it served", () => {
    const caller = new AbortController();
    for (let i = 0; i < 100; i++) new CallClock(60_000, caller.signal).stop();
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
    const running = new CallClock(60_000, caller.signal);
    assert.equal(getEventListeners(caller.signal, 'abort').length, 1);
    running.stop();
  });

  it('runs out with the SDK timeout error, and not while a person answers', async () => {
    const clock = new CallClock(30);
    await clock.paused(() => new Promise((r) => setTimeout(r, 80)));
    assert.equal(clock.signal.aborted, false, 'the wait for the person counted against the call');
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(clock.signal.aborted, true);
    assert.match(String(clock.signal.reason), /Request timed out/);
  });

  it("with the caller's own controller lent, ends the call through it and makes no second signal", async () => {
    const lent = new AbortController();
    const clock = new CallClock(30, lent);
    assert.equal(clock.signal, lent.signal);
    assert.equal(getEventListeners(lent.signal, 'abort').length, 0);
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(lent.signal.aborted, true);
    assert.match(String(lent.signal.reason), /Request timed out/);
    assert.equal(CallClock.ranOut(lent.signal), true, 'a timeout is told apart from a cancel');
    clock.stop();
  });

  it('tells a cancel through the lent controller from the clock running out', () => {
    const lent = new AbortController();
    const clock = new CallClock(60_000, lent);
    lent.abort(new Error('cancelled by a message'));
    assert.equal(clock.signal.aborted, true);
    assert.equal(CallClock.ranOut(lent.signal), false);
    assert.equal(CallClock.ranOut(new AbortController().signal), false);
    clock.stop();
  });
});
