// ESLint for the harness's TypeScript and JavaScript (make lint): apis, bench, conformance,
// harness, pact. The implementations (impl/) keep their own style for now.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'impl/**', '.cache/**', 'results/**', 'images/**', 'spec/**', 'scripts/**'] },
  { files: ['{apis,bench,conformance,harness,pact}/**/*.{ts,js}'], extends: [js.configs.recommended, ...tseslint.configs.recommended] },
  {
    files: ['{apis,bench,conformance,harness,pact}/**/*.{ts,js}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', performance: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // Tests may read what they parse loosely.
  { files: ['**/test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
