// For suites whose tests are steps of one story (each builds on the one before): after a failed
// step the rest are skipped and reported as pending. Mocha's own `this.bail(true)` is not used on
// purpose: a bailing suite drops all its tests without a word once ANY earlier spec of the whole
// run has failed (Runner#runTests empties `tests` when `self.failures && suite._bail`).
import { skipBecause } from './skip';

export function stepByStep(suite: Mocha.Suite): void {
  let failed: string | undefined;
  suite.afterEach(function () {
    if (this.currentTest?.state === 'failed') failed ??= this.currentTest.title;
  });
  suite.beforeEach(function () {
    if (failed) skipBecause(this, `the steps after "${failed}"`, 'that step failed, and each step builds on the one before');
  });
}
