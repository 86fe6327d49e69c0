// The browser suite (TESTING.md): Playwright Test on Debian's Chromium, against the built app and the
// real server. `npm run test:e2e` (or `npx playwright test`) runs it; `-- --ui` opens the UI mode.
// A failing test keeps its trace, screenshot and the server's log in test-results/; the HTML report
// is in playwright-report/ (`npx playwright show-report`).
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './tests/fixtures/browser.ts';

const ci = process.env['CI'] === 'true' || process.env['CI'] === '1';

/**
 * On PostgreSQL (CI's second pass, right after the embedded pass ran every spec) the browser suite runs
 * the specs whose subject is what the server stores and how devices meet it there: writes made
 * offline and under faults reaching it once, refusals, a restored server, the live change feed (two
 * instances behind HAProxy: PostgreSQL only), the staff review's snapshot and versions, the staff's
 * writes and alerts, times across zones. The others (the screens' looks, languages, the install,
 * reminders on the device, logins, forms) stand on the same routes, and each route is run on
 * PostgreSQL by the Vitest server tests (CI's run took 76 minutes on a slow machine with them all on
 * both passes, its goal 45). E2E_ALL=1 runs every spec there too.
 */
const ON_POSTGRES = [
  'e2e/faults.spec.ts',
  'e2e/offline-sync.spec.ts',
  'e2e/patient-offline.spec.ts',
  'e2e/sync-refusals.spec.ts',
  'e2e/restored-server.spec.ts',
  'e2e/live-changes.spec.ts',
  'e2e/live-changes-balanced.spec.ts',
  'e2e/staff-review.spec.ts',
  'e2e/staff-manage.spec.ts',
  'e2e/staff-alerts.spec.ts',
  'e2e/time-zones.spec.ts',
];
// A spec renamed or gone would leave the PostgreSQL pass without it, unseen: the list is checked.
for (const spec of ON_POSTGRES)
  if (!existsSync(new URL(`./tests/${spec}`, import.meta.url))) throw new Error(`playwright.config.ts names ${spec} in ON_POSTGRES: there is no such spec`);
const onPostgres = Boolean(process.env['DATABASE_URL']) && process.env['E2E_DATABASE'] !== 'embedded';
const runAll = !onPostgres || process.env['E2E_ALL'] === '1';
if (!existsSync(chromiumPath)) {
  // A suite that skips its browser tests on a machine without a browser would pass while proving
  // nothing: this stops the run, on CI and at a desk alike.
  throw new Error(`No Chromium at ${chromiumPath}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`);
}

export default defineConfig({
  testDir: 'tests',
  testMatch: runAll ? ['e2e/**/*.spec.ts'] : ON_POSTGRES,
  // The machine the suite is made for has 2 cores, yet the suite mostly waits (for replays, backoffs,
  // restarts): three workers keep both cores busy (measured: 1.1 cores used with two, 7.4 min
  // instead of about 9 with three). E2E_WORKERS=1 runs one file at a time.
  workers: Number(process.env['E2E_WORKERS'] ?? 3),
  fullyParallel: false,
  forbidOnly: ci,
  // No retries: a test that passes only on its second try is a bug to find, not a pass.
  retries: 0,
  timeout: 60_000,
  // Screenshot baselines (tests/e2e/screens.spec.ts) live beside their spec, named by what they show.
  // A pixel differs past a colour distance of 0.2; a screen may differ in 20 pixels (screens.spec.ts says why).
  expect: { timeout: 15_000, toHaveScreenshot: { threshold: 0.2, maxDiffPixels: 20, animations: 'disabled', caret: 'hide', scale: 'css' } },
  snapshotPathTemplate: '{testDir}/e2e/screens/{arg}{ext}',
  reporter: ci ? [['list'], ['html', { open: 'never' }]] : [['list'], ['html', { open: 'on-failure' }]],
  outputDir: 'test-results/e2e',
  use: {
    viewport: { width: 390, height: 844 },
    launchOptions: { executablePath: chromiumPath, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    video: 'off',
    serviceWorkers: 'allow',
  },
});
