// Mocha's spec reporter plus what `npm test` needs to add up its runs: at the end, the reasons
// test/helpers/skip.ts collected, and (with MOCHA_STATS_FILE set) the counts and reasons written
// as JSON for scripts/test.mjs, which prints one total over both runtimes.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class SpecWithSkips extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const skips = globalThis.__mcpGeminiSkips ?? [];
      const reasons = [...new Map(skips.map((s) => [`${s.what}: ${s.reason}`, s])).values()];
      if (reasons.length) {
        console.log('  Skipped, and why:');
        for (const s of reasons) console.log(`    - ${s.what}: ${s.reason}`);
      }
      const file = process.env.MOCHA_STATS_FILE;
      if (file) {
        const { passes, failures, pending, duration } = runner.stats;
        writeFileSync(file, JSON.stringify({ passes, failures, pending, duration, reasons }));
      }
    });
  }
}

module.exports = SpecWithSkips;
