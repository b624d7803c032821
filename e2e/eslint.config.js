// The browser tests' lint gate (`npm run lint`, run by `make lint`): ESLint's recommended rules
// and typescript-eslint's with type information, over JavaScript that tsconfig.json type-checks.
// Any finding fails, warnings included (`--max-warnings 0`).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores(['node_modules', 'screenshots', 'test-results']),
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // tsc (checkJs) reports undefined names, and knows that page.evaluate's callbacks run in the browser.
      'no-undef': 'off',
      // node:test runs top-level tests itself; awaiting them would serialise nothing.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      // The tests read the server's JSON (`any` from response.json()) and assert on it; the web app's
      // generated API types are where answers are typed.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
]);
