import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vitest/config';

// Unit and integration tests: server tests (real Fastify, real database), browser-side unit tests in
// Node with fake-indexeddb, and the tests of the test tools themselves (tests/fixtures, tests/fuzz).
// The browser suite runs on Playwright Test (playwright.config.ts, tests/e2e/*.spec.ts).
export default defineConfig({
  plugins: [babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] })],
  test: {
    include: ['server/**/*.test.ts', 'schemas/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'sync/**/*.test.ts', 'sw/**/*.test.ts', 'tests/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker; the server tests mostly wait on their
    // databases, so two run side by side (measured: 334 s with one, 206 s with two).
    maxWorkers: 2,
  },
});
