// Lint: typescript-eslint's recommended rules, no `any`, no stray console output (the server logs
// through pino; the CLI writes to process.stdout on purpose).
import js from '@eslint/js';
import globals from 'globals';
import lingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Code whose casts are checked (see the rule below); tests and their harness may cast their fakes. */
const CAST_CHECKED = ['src/**/*.{ts,tsx}', 'sync/**/*.ts', 'sw/**/*.ts', 'schemas/**/*.ts', 'report/**/*.ts', 'server/**/*.ts'];
const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/testing/**', '**/test-support.tsx'];

/** Casts: see the rule's block below. */
const CAST_RULES = [
  {
    selector: 'TSAsExpression > TSAsExpression.expression[typeAnnotation.type="TSUnknownKeyword"]',
    message:
      'A double cast (`as unknown as T`) overrides what the types say: derive the type, check the value, or say why it is safe in an eslint-disable-next-line comment.',
  },
  {
    selector: 'CatchClause TSAsExpression[typeAnnotation.typeName.name="Error"]',
    message: 'A caught value need not be an Error: check it (`err instanceof Error`).',
  },
];
/** What RxDB does not promise across versions is read in sync/rxdb-internals.ts only. */
const RXDB_INTERNALS_MESSAGE = "RxDB's internals are read in sync/rxdb-internals.ts only, whose contract test runs on every upgrade: add what you need there.";
const RXDB_INTERNALS = [
  { selector: 'MemberExpression[property.name=/^(internalReplicationState|forkInstance|metaInstance)$/]', message: RXDB_INTERNALS_MESSAGE },
  { selector: 'MemberExpression[object.property.name="_meta"], MemberExpression[object.name="_meta"]', message: RXDB_INTERNALS_MESSAGE },
  {
    selector: 'ImportDeclaration[source.value="rxdb"] ImportSpecifier[imported.name=/^(getAssumedMasterState|getHeightOfRevision|now)$/]',
    message: RXDB_INTERNALS_MESSAGE,
  },
];

/**
 * The layers (README "Folders"): src → sync → schemas, sw → sync → schemas, server → schemas, and
 * report → schemas for src, the PDF worker and the server; a
 * feature of the app never imports another (what two share goes to src/components or src/lib);
 * on the server routes and the HTTP layer call services, and only repositories (and the database's
 * setup and demo data) use the query builder. Tests may
 * cross layers to drive the real thing (a sync test on the device's real database).
 */
const up = '^(\\.\\./)+';
const layer = (files, forbidden, message, extra = []) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx', '**/testing/**'],
  rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: `${up}(${forbidden.join('|')})/`, message }, ...extra] }] },
});
const serverDb = [
  { group: ['drizzle-orm', 'drizzle-orm/*'], message: 'The query builder belongs in server/repositories/.' },
  { regex: '/db/schema\\.ts$', allowTypeImports: true, message: 'Tables are queried in server/repositories/ (types may be imported anywhere).' },
];
/** The device's storage engines are opened in sync/storage/ only, and by the outbox, which keeps its own queue. */
const deviceStorage = [
  {
    group: ['dexie', 'rxdb/plugins/storage-*'],
    message: 'What the device keeps is opened in sync/storage/ (the outbox, sync/outbox.ts, keeps its own queue).',
  },
];
const SYNC_LAYER = 'sync/ depends on schemas/ only (src and sw build on it, not the other way).';
const layers = [
  layer(['schemas/**/*.ts'], ['src', 'sync', 'sw', 'server', 'report', 'scripts', 'tests'], 'schemas/ is the shared contract: it imports no other layer.'),
  layer(
    ['report/**/*.ts'],
    ['src', 'sync', 'sw', 'server', 'scripts', 'tests'],
    'report/ builds the report from schemas/ only (the app, its PDF worker and the server all run it).',
  ),
  layer(['sync/**/*.ts'], ['src', 'sw', 'server', 'report', 'scripts', 'tests'], SYNC_LAYER, deviceStorage),
  layer(['sync/storage/**/*.ts', 'sync/outbox.ts'], ['src', 'sw', 'server', 'report', 'scripts', 'tests'], SYNC_LAYER),
  layer(['sw/**/*.ts'], ['src', 'server', 'report', 'scripts', 'tests'], 'The service worker depends on sync/ and schemas/ only.', deviceStorage),
  layer(
    ['src/**/*.{ts,tsx}'],
    ['server', 'sw', 'scripts', 'tests'],
    'The app depends on sync/, schemas/ and report/, never on the server or the worker.',
    deviceStorage,
  ),
  layer(
    ['src/features/**/*.{ts,tsx}'],
    ['server', 'sw', 'scripts', 'tests'],
    'The app depends on sync/, schemas/ and report/, never on the server or the worker.',
    [
      { regex: '^\\.\\./(?!\\.\\.)[^/]+/', message: 'A feature does not import another feature: move what both need to src/components or src/lib.' },
      ...deviceStorage,
    ],
  ),
  layer(['server/**/*.ts'], ['src', 'sync', 'sw', 'tests'], 'The server depends on schemas/ and report/ only.', serverDb),
  // Routes and the HTTP layer call services, never a repository (README "Folders": routes → services → repositories).
  layer(['server/routes/**/*.ts', 'server/http/**/*.ts'], ['src', 'sync', 'sw', 'tests'], 'The server depends on schemas/ and report/ only.', [
    ...serverDb,
    { regex: '/repositories/', allowTypeImports: true, message: 'Routes and the HTTP layer call services; services call repositories.' },
  ]),
  // Repositories, the database's setup and the demo data's bulk load are where the query builder belongs.
  layer(
    ['server/repositories/**/*.ts', 'server/db/**/*.ts', 'server/seed/**/*.ts'],
    ['src', 'sync', 'sw', 'tests'],
    'The server depends on schemas/ and report/ only.',
  ),
];

export default tseslint.config(
  { ignores: ['node_modules/', 'build/', 'dist/', 'data/', 'coverage/', 'playwright-report/', 'test-results/', 'src/route-tree.gen.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The rules of hooks and React's purity rules (what the React Compiler relies on), every one of
  // them: a fetch's "loading" is derived from which request has no answer yet (lib/use-staff-query.ts),
  // never set at the start of an effect.
  { files: ['src/**/*.{ts,tsx}'], ...reactHooks.configs.flat['recommended-latest'] },
  ...layers,
  // No untranslated text in a component: every string a person could read goes through Lingui.
  // What is not text is told apart by where it stands (class names, ids, keys, URLs, CSS, dates in
  // ISO form, keyboard keys) or says why with an eslint-disable comment (the brand's name, values
  // the API stores that are worded where they are shown).
  {
    files: ['src/**/*.tsx'],
    ignores: ['**/*.test.tsx', '**/test-support.tsx'],
    plugins: { lingui },
    rules: {
      'lingui/no-unlocalized-strings': [
        'error',
        {
          // …, and CSS font lists and sizes (a canvas's font: '12px "Noto Sans Devanagari", sans-serif').
          ignore: ['^(?![A-Z])\\S+$', '^[A-Z0-9_-]+$', 'T\\d\\d:\\d\\d', '^rgba?\\(', '^Arrow(Up|Down|Left|Right)$', 'sans-serif$', '^\\d+px '],
          ignoreNames: [
            {
              regex: {
                pattern:
                  '^(className|id|key|type|to|href|rel|role|autoComplete|inputMode|name|lang|dir|method|src|d|viewBox|fill|stroke|fillStyle|strokeStyle|icon|htmlFor|data-.*|aria-(controls|describedby|labelledby|hidden|live|current)|describedBy)$',
              },
            },
          ],
          ignoreFunctions: [
            'log.*',
            'console.*',
            'inBackground',
            'Error',
            'URLSearchParams',
            'Intl.*',
            'document.*',
            '*.addEventListener',
            'matchMedia',
            'import',
          ],
        },
      ],
    },
  },
  // Lingui's rules for how messages are written, as errors: `t` only inside functions (where the
  // active locale is known), no message that is a lone tag or a lone variable, no <Trans> in <Trans>,
  // and every value in a message named (`{ count: list.length }`, not `list.length`): a translator
  // reads "{count} readings", not "{0} readings".
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { lingui },
    rules: {
      'lingui/t-call-in-function': 'error',
      'lingui/no-single-tag-to-translate': 'error',
      'lingui/no-single-variables-to-translate': 'error',
      'lingui/no-trans-inside-trans': 'error',
      'lingui/no-expression-in-message': 'error',
    },
  },
  // No floating promise (type-checked, so `void p` does not count as handled): a promise is awaited,
  // handled, or started with inBackground (sync/background.ts), which logs what still rejects. The few
  // exceptions carry an eslint-disable comment saying why they are safe.
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }], '@typescript-eslint/no-misused-promises': 'error' },
  },
  // Casts: a type is derived from its schema (schemas/, `Answer<typeof …>`, Drizzle's `$type`) or
  // checked, not asserted. An object literal is not cast to a type (annotate it, or `satisfies`);
  // a double cast (`as unknown as T`) and a caught value taken for an Error are refused, and the few
  // double casts left on library internals say why in an eslint-disable comment. Tests may cast
  // their fakes. (typescript-eslint's no-unnecessary-type-assertion is not on: run once, it removed
  // 40 casts, and also called three needed ones unnecessary — an index read behind `??`, a generic
  // Drizzle table, a `delete` on a required field — so its fixes break the type check.)
  {
    files: CAST_CHECKED,
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'as', objectLiteralTypeAssertions: 'never' }],
      'no-restricted-syntax': ['error', ...CAST_RULES, ...RXDB_INTERNALS],
    },
  },
  // The one module that reads RxDB's internals (its contract test runs on every upgrade).
  { files: ['sync/rxdb-internals.ts'], rules: { 'no-restricted-syntax': ['error', ...CAST_RULES] } },
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
