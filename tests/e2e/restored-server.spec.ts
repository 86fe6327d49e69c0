// A server restored from a backup is healed by the device that still holds what it lost (issue 45;
// docs/sync-protocol.md, "A restored server"). The backup and the restore are the operator's own
// (README, "Backup and restore": the admin CLI on the embedded database, pg_dump and pg_restore on
// PostgreSQL); the patient does nothing but open the app again.
import { expect, test } from '../fixtures/index.ts';
import type { Browser, Page } from '@playwright/test';
import { apiLogin, launchChromium, saveReading, serverReadings, startServer, uiLogin, until, type EddyServer } from '../fixtures/index.ts';
import * as ui from '../chaos/ui.ts';

let server: EddyServer;
let browser: Browser;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  server = await startServer({ startTimeoutMs: 120_000 });
  browser = await launchChromium();
});
test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

async function record(page: Page, value: number): Promise<void> {
  await page.getByRole('radio', { name: 'Random' }).check();
  await page.getByLabel('Glucose (mg/dL)').fill(String(value));
  await saveReading(page, value);
}

test('a server restored from a backup gets back, once each, the readings and the edit the device saved after it', async () => {
  test.setTimeout(240_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await uiLogin(page, server.url, '100001', 'Demo-patient-1');
  const token = await apiLogin(server.url, '100001', 'Demo-patient-1');
  const count = async (value: number) => (await serverReadings(server.url, token)).filter((r) => Math.round(r.value) === value).length;
  const onServer = (values: number[]) =>
    until(`${values.join(', ')} on the server`, async () => ((await Promise.all(values.map(count))).every((n) => n === 1) ? true : undefined), 60_000);

  await record(page, 377);
  await onServer([377]);
  const backup = await server.backup();

  // After the backup: two readings, and the first one corrected.
  await page.reload();
  await ui.appReady(page);
  await record(page, 388);
  await record(page, 399);
  await ui.editGlucose(page, 377, 366);
  await onServer([366, 388, 399]);

  await server.restore(backup);
  expect(await count(366)).toBe(0);
  expect(await count(388)).toBe(0);
  expect(await count(377)).toBe(1);

  // The patient opens the app again: the device sees the server's history went back and sends it
  // what it lacks, each once.
  await page.reload();
  await ui.appReady(page);
  await onServer([366, 388, 399]);
  expect(await count(377)).toBe(0);
  // And it says so once it has (not before): the screens show the server's copy.
  await expect
    .poll(async () => (await ui.glucoseShown(page, 'Random')).filter((v) => [366, 388, 399].includes(v)).sort(), { timeout: 30_000 })
    .toEqual([366, 388, 399]);
  // Nothing goes a second time: a later sync changes nothing on the server.
  await page.reload();
  await ui.appReady(page);
  await page.waitForTimeout(3_000);
  for (const v of [366, 388, 399]) expect(await count(v)).toBe(1);
  await context.close();
});
