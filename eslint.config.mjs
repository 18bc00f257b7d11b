// Lint for the engine, the node adapters, tests and benchmarks. typescript-eslint's recommended rules;
// formatting is Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.tools/', '.node-red/', 'results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.mocha } },
    rules: {
      // Node-RED loads node files with require(); tests load them the same way.
      '@typescript-eslint/no-require-imports': 'off',
      // `const node = this` is how every Node-RED node constructor names itself for its handlers.
      '@typescript-eslint/no-this-alias': 'off',
      // Remaining `any` sits at the Node-RED boundary (untyped msg and config objects); shown, not fatal.
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests read arbitrary JSON from peers and the runtime.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  {
    // The dialogs (editor.ts and the parts beside it named *-editor.ts) run in the Node-RED editor
    // page: browser globals, jQuery and RED. They are typed like the engine (no explicit any):
    // nodes/shared/editor/register.ts gives each callback its node's settings.
    files: ['nodes/*/editor.ts', 'nodes/*/*-editor.ts', 'nodes/shared/editor/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, RED: 'readonly', $: 'readonly' } },
  },
);
