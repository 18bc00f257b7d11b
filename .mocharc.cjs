// TypeScript specs run directly through tsx; every spec starts its own peers on 127.0.0.1.
module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  spec: process.env.MOCHA_SPEC ? process.env.MOCHA_SPEC.split(',') : ['test/**/*.test.ts'],
  timeout: 30000,
  // No `exit: true`: the run must end by itself. leak-check names whatever would keep it alive.
  require: ['test/helpers/leak-check.ts'],
  reporter: 'spec',
};
