// TypeScript specs run directly through tsx; every spec starts its own peers on 127.0.0.1.
// MOCHA_SPEC / MOCHA_IGNORE (comma-separated globs) narrow a run; scripts/test.mjs uses MOCHA_IGNORE
// for the second runtime.
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: process.env.MOCHA_SPEC ? process.env.MOCHA_SPEC.split(',') : ['test/**/*.test.ts'],
  ignore: process.env.MOCHA_IGNORE ? process.env.MOCHA_IGNORE.split(',') : [],
  timeout: 30000,
  // No `exit: true`: the run must end by itself. leak-check names whatever would keep it alive.
  require: ['test/helpers/leak-check.ts'],
  // Mocha's spec reporter, plus the skip reasons and the counts scripts/test.mjs adds up.
  reporter: require.resolve('./test/helpers/reporter.cjs'),
};
