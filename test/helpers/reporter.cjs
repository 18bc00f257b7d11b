// Mocha's spec reporter plus what `npm test` needs to add up its runs: at the end, the reasons
// test/helpers/skip.ts collected, and (with MOCHA_STATS_FILE set) the counts and reasons written
// as JSON for scripts/test.mjs, which prints one total over both runtimes and names every failure.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class SpecWithSkips extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    // Kept short for the last lines of `npm test`: CI logs are often read from their tail only, and
    // mocha prints the failures' details far above it.
    const failed = [];
    // Wall time per spec file, hooks included: scripts/test.mjs balances its parallel runs with it.
    const files = {};
    const started = new Map();
    runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite, Date.now());
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite) => {
      const at = started.get(suite);
      if (at === undefined) return;
      const file = require('node:path').relative(process.cwd(), suite.file);
      files[file] = (files[file] ?? 0) + Date.now() - at;
    });
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, err) => {
      const firstLine = String(err?.message ?? err)
        .split('\n')[0]
        .slice(0, 300);
      failed.push({ title: test.fullTitle(), file: test.file ? require('node:path').relative(process.cwd(), test.file) : '', error: firstLine });
    });
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
        writeFileSync(file, JSON.stringify({ passes, failures, pending, duration, reasons, failed, files }));
      }
    });
  }
}

module.exports = SpecWithSkips;
