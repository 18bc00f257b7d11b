// Mocha's spec reporter plus what `npm test` needs to add up its runs: at the end, the reasons
// test/helpers/skip.ts collected, and (with MOCHA_STATS_FILE set) the counts and reasons written
// as JSON for scripts/test.mjs, which prints one total over both runtimes and names every failure.
const { readFileSync, writeFileSync } = require('node:fs');
const Mocha = require('mocha');

/**
 * CPU seconds of this process and of every child it has waited for (Node-RED, servers, Chromium),
 * from /proc on Linux (undefined elsewhere): on a 2-core machine the suite's time is its CPU, so
 * `npm test` reports which files cost the most of it.
 */
function cpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat(5); fields here start at field 3.
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return undefined;
  }
}

class SpecWithSkips extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    // Kept short for the last lines of `npm test`: CI logs are often read from their tail only, and
    // mocha prints the failures' details far above it.
    const failed = [];
    // Wall time per spec file, hooks included: scripts/test.mjs balances its parallel runs with it.
    const files = {};
    // CPU seconds per spec file, children included (see cpuSeconds).
    const cpu = {};
    const started = new Map();
    runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent?.root) started.set(suite, { at: Date.now(), cpu: cpuSeconds() });
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite) => {
      const begun = started.get(suite);
      if (begun === undefined) return;
      const file = require('node:path').relative(process.cwd(), suite.file);
      files[file] = (files[file] ?? 0) + Date.now() - begun.at;
      const now = cpuSeconds();
      if (now !== undefined && begun.cpu !== undefined) cpu[file] = Math.round(((cpu[file] ?? 0) + now - begun.cpu) * 100) / 100;
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
        writeFileSync(file, JSON.stringify({ passes, failures, pending, duration, reasons, failed, files, cpu }));
      }
    });
  }
}

module.exports = SpecWithSkips;
