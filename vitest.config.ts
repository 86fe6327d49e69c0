import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vitest/config';

// Unit and integration tests, in three projects named for what they need:
// - unit: plain functions and modules in Node, the device's storage on fake-indexeddb; no database, no DOM;
// - browser: React components and page code in a DOM (jsdom), `*.dom.test.ts(x)`;
// - server: a real Fastify on a real database (PGlite in memory, or a fresh PostgreSQL database
//   with DATABASE_URL), and the sync tests that talk to it, `*.db.test.ts`;
// - alone: tests that time the whole product (`*.alone.test.ts`: `npm start` serves in seconds). They
//   run after the other three have finished (groupOrder), one at a time: with two PGlite workers
//   beside it on a 2-core machine, a 4.5 s start measured 30.6 s in CI, which timed the neighbours.
// `npm test` runs all four (`vitest run`); `npm run test:fast` the first two, which need no database.
// The browser suite runs on Playwright Test (playwright.config.ts, tests/e2e/*.spec.ts).
// With DATABASE_URL set (CI's PostgreSQL pass, right after the embedded pass ran everything), a plain
// `vitest run` runs only the projects a database changes, server and alone: unit and browser need no
// database and give the same result on either pass (86 s alone, measured on the 2-core machine). VITEST_ALL=1
// runs all four there too; naming projects (`--project …`, as test:fast does) always runs those named.
const projectsNamed = process.argv.some((a) => a === '--project' || a.startsWith('--project='));
const databaseOnly = Boolean(process.env['DATABASE_URL']) && process.env['VITEST_ALL'] !== '1' && !projectsNamed;
const everywhere = ['server', 'schemas', 'report', 'src', 'sync', 'sw', 'tests', 'scripts'].map((dir) => `${dir}/**/*.test.{ts,tsx}`);

export default defineConfig({
  plugins: [babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] })],
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker; the server tests mostly wait on their
    // databases, so two run side by side (measured: 334 s with one, 206 s with two).
    maxWorkers: 2,
    projects: [
      ...(databaseOnly
        ? []
        : [
            {
              test: {
                name: 'unit',
                include: everywhere,
                exclude: ['**/*.db.test.ts', '**/*.dom.test.{ts,tsx}', '**/*.alone.test.ts', '**/node_modules/**'],
                sequence: { groupOrder: 0 },
              },
            },
            { test: { name: 'browser', include: ['src/**/*.dom.test.{ts,tsx}'], environment: 'jsdom', sequence: { groupOrder: 0 } } },
          ]),
      { test: { name: 'server', include: ['**/*.db.test.ts'], exclude: ['**/node_modules/**'], sequence: { groupOrder: 0 } } },
      { test: { name: 'alone', include: ['**/*.alone.test.ts'], exclude: ['**/node_modules/**'], fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
