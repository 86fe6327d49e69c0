// A patient whose phone is in another zone than their profile's (docs: README "Times and time
// zones"): the phone is in Paris, the profile (and so the report) in Kolkata, 4 h 30 min apart. A
// reading saved on the dashboard keeps the phone's offset, shows its time with the phone's zone
// named, and the report names the profile's zone and shows the same reading on its clock.
import { expect, openReadings, test } from '../fixtures/index.ts';
import type { Browser } from '@playwright/test';
import {
  apiLogin,
  DEMO_ADMIN,
  launchChromium,
  saveReading,
  screenshot,
  serverReadings,
  startServer,
  uiLogin,
  until,
  type EddyServer,
} from '../fixtures/index.ts';

const DEVICE_ZONE = 'Europe/Paris';
const PROFILE_ZONE = 'Asia/Kolkata';
/** The list item of the reading saved here (not 163 or 263). */
const THIS_READING = /^\s*63\s/;

let server: EddyServer;
let browser: Browser;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
  // The hospital sets the patient's zone (the demo's is the server's own).
  const login = await fetch(`${server.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_ADMIN),
  });
  const admin = String(((await login.json()) as { token?: string }).token);
  const patch = await fetch(`${server.url}/api/admin/patients/100001`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    body: JSON.stringify({ timeZone: PROFILE_ZONE }),
  });
  expect(patch.status).toBe(200);
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

/** ICU's narrow spaces as plain ones, for comparing what a page shows. */
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const clock = (at: string, timeZone: string, named: boolean) =>
  squash(new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit', ...(named ? { timeZoneName: 'short' } : {}) }).format(new Date(at)));
/** A zone's offset at `at` in minutes east of UTC ("GMT+05:30" → 330). */
const offsetOf = (at: string, timeZone: string) => {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' }).formatToParts(new Date(at)).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
};

test('a reading saved on a phone in another zone than the profile’s names its zone on the dashboard, the report names the profile’s, and back in that zone only that reading names one', async () => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', timezoneId: DEVICE_ZONE });
  const page = await context.newPage();
  await uiLogin(page, server.url, '100001', 'Demo-patient-1');

  // The dashboard says once which clock its times are on.
  const note = page.getByTestId('clock-note');
  await expect(note).toContainText(`Times are on this device’s clock (${DEVICE_ZONE}); your profile’s zone is ${PROFILE_ZONE}.`, { timeout: 30_000 });

  // A low, so the report lists it with its time.
  await page.getByRole('radio', { name: 'Random' }).check();
  await page.getByLabel('Glucose (mg/dL)').fill('63');
  await saveReading(page, 63);
  const token = await apiLogin(server.url, '100001', 'Demo-patient-1');
  const reading = await until('the reading on the server', async () =>
    (await serverReadings(server.url, token)).find((r) => r.value === 63 && Date.now() - Date.parse(r.recordedAt) < 10 * 60_000),
  );
  // The phone's offset then is kept with it (Paris: +60 in winter, +120 in summer).
  expect(reading).toMatchObject({ utcOffsetMinutes: offsetOf(reading.recordedAt, DEVICE_ZONE) });

  // On the dashboard: the phone's clock, its zone named ("6:43 PM GMT+1"), in the list and in today's readings.
  const onPhone = clock(reading.recordedAt, DEVICE_ZONE, true);
  expect(onPhone).toMatch(/GMT\+[12]$/);
  await expect.poll(async () => squash(await page.getByTestId('today-readings').innerText())).toContain(onPhone);
  await screenshot(page, 'time-zones-dashboard-390');
  await openReadings(page);
  const item = page.getByTestId('glucose-list-Random').getByRole('listitem').filter({ hasText: THIS_READING }).first();
  await expect.poll(async () => squash(await item.innerText())).toContain(onPhone);

  // The meal times for reminders are the profile's clock, and the profile page says so.
  await page.getByRole('link', { name: 'Profile' }).first().click();
  await expect(page.getByTestId('meal-times-zone')).toHaveText(
    `These times are on your profile’s clock (${PROFILE_ZONE}), not this device’s (${DEVICE_ZONE}).`,
    { timeout: 30_000 },
  );

  // The report: the profile's zone named in its head, the same reading at the profile's time.
  await page.getByRole('link', { name: 'Reports' }).first().click();
  await expect(page.getByTestId('report-time-zone')).toHaveText(`Times are local to ${PROFILE_ZONE}`, { timeout: 30_000 });
  const inReport = clock(reading.recordedAt, PROFILE_ZONE, false);
  const low = page.getByTestId('report-lows-list').getByRole('row').filter({ hasText: '63' }).last();
  await expect.poll(async () => squash(await low.innerText())).toContain(inReport);
  expect(squash(await low.innerText())).not.toContain(clock(reading.recordedAt, DEVICE_ZONE, false));
  await screenshot(page, 'time-zones-report-390');
  await context.close();

  // Back home in Kolkata: no note, the readings of that clock as they always read, and the one
  // taken in Paris names the zone, as it was taken at another offset than this clock's.
  const home = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US', timezoneId: PROFILE_ZONE });
  const again = await home.newPage();
  await uiLogin(again, server.url, '100001', 'Demo-patient-1');
  await again.getByTestId('today-readings').filter({ hasText: '63' }).waitFor({ timeout: 30_000 });
  await expect(again.getByTestId('clock-note')).toHaveCount(0);
  await openReadings(again);
  const list = again.getByTestId('glucose-list-Random');
  const items = list.getByRole('listitem');
  await items.filter({ hasText: THIS_READING }).first().waitFor({ timeout: 30_000 });
  await expect
    .poll(async () => squash(await items.filter({ hasText: THIS_READING }).first().innerText()))
    .toContain(clock(reading.recordedAt, PROFILE_ZONE, true));
  const others = (await items.allInnerTexts()).filter((t) => !THIS_READING.test(t));
  expect(others.length).toBeGreaterThan(0);
  for (const text of others) expect(text).not.toMatch(/GMT|UTC/);
  await home.close();
});
