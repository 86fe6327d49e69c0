// "Import from meter" in Chromium (issue 19): offered where the browser has Web Bluetooth (here with
// Chromium's switch for Linux, where it is still experimental), and replaced by its one-line reason
// where it has none. The meter's side (the Glucose Profile's bytes, the Record Access Control Point
// dialogue, what each record becomes) is proved by the unit tests of src/features/meter/. Driving a
// simulated meter through Chromium's BluetoothEmulation domain is not done yet: see the README.
import type { Browser } from '@playwright/test';
import { expect, launchChromium, loginPatient, screenshot, seriousA11yViolations, startServer, test, type EddyServer } from '../fixtures/index.ts';

let server: EddyServer;
const browsers: Browser[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
});

test.afterAll(async () => {
  for (const b of browsers) await b.close();
  await server?.cleanup();
});

async function dashboard(extraArgs: string[]) {
  const browser = await launchChromium({ extraArgs });
  browsers.push(browser);
  const page = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await loginPatient(page, server.url);
  return page;
}

test('offers the import where the browser has Web Bluetooth, and says why not where it has none', async () => {
  test.setTimeout(120_000);
  // Web Bluetooth is behind this switch in Chromium on Linux (on by default on Android, Windows, macOS and ChromeOS).
  const page = await dashboard(['--enable-experimental-web-platform-features']);
  expect(await page.evaluate(() => 'bluetooth' in navigator)).toBe(true);
  const card = page.getByRole('region', { name: 'Import from meter' });
  await card.getByText(/Readings from a Bluetooth glucometer/).waitFor();
  await card.getByRole('button', { name: 'Import from meter' }).waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'meter-import-dashboard-360');

  const without = await dashboard([]);
  expect(await without.evaluate(() => 'bluetooth' in navigator)).toBe(false);
  const missing = without.getByRole('region', { name: 'Import from meter' });
  await missing.getByText(/needs Bluetooth in the browser: Chrome or Edge on Android, Windows, macOS or Linux/).waitFor();
  expect(await missing.getByRole('button').count()).toBe(0);
});
