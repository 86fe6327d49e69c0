import babel from '@rolldown/plugin-babel';
import { defineConfig } from 'vitest/config';

// One run for everything: server tests (real Fastify, real database), browser-side unit tests in
// Node with fake-indexeddb, and the end-to-end tests in tests/ (a real Chromium).
export default defineConfig({
  plugins: [babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] })],
  test: {
    include: ['server/**/*.test.ts', 'schemas/**/*.test.ts', 'src/**/*.test.{ts,tsx}', 'sync/**/*.test.ts', 'sw/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
