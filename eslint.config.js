// Lint: typescript-eslint's recommended rules, no `any`, no stray console output (the server logs
// through pino; the CLI writes to process.stdout on purpose).
import js from '@eslint/js';
import globals from 'globals';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'build/', 'dist/', 'data/', 'coverage/', 'playwright-report/', 'test-results/', 'src/route-tree.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The rules of hooks and React's purity rules (what the React Compiler relies on). One is not on
  // yet: set-state-in-effect, for the six staff screens and hooks that set "loading" at the start of
  // a fetch in an effect (use-staff-query.ts, use-review.ts, and the Manage page's audit log, doctor
  // tokens, patients and prescriptions); moving them onto one query hook is the next step.
  { files: ['src/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  { files: ['src/**/*.{ts,tsx}'], rules: { 'react-hooks/set-state-in-effect': 'off' } },
  // Lingui's rules for how messages are written, as errors: `t` only inside functions (where the
  // active locale is known), no message that is a lone tag or a lone variable, no <Trans> in <Trans>.
  // Not on yet: no-expression-in-message (106 messages put an expression such as i18n.number(x) in
  // the text instead of a named value) and no-unlocalized-strings (57 strings in the components).
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { lingui },
    rules: { 'lingui/t-call-in-function': 'error', 'lingui/no-single-tag-to-translate': 'error', 'lingui/no-single-variables-to-translate': 'error', 'lingui/no-trans-inside-trans': 'error' },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      'no-console': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-expect-error': 'allow-with-description' }],
      'no-control-regex': 'off',
    },
  },
);
