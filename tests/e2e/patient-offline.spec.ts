// A patient's day done entirely offline (issue "Everything a patient does"): every kind of entry is
// (glucose, a dose, an appointment, a symptom, a lab result, meal times) made without a connection, survives a reload while still offline, and reaches the server exactly
// once, with the time it was made, when the connection returns.
import { expect, test, todayShows, dateTimeField, dateTimeValue, fillDateTime } from '../fixtures/index.ts';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  apiLogin,
  FaultProxy,
  offlineReady,
  launchChromium,
  screenshot,
  seriousA11yViolations,
  serverReadings,
  startServer,
  uiLogin,
  type EddyServer,
} from '../fixtures/index.ts';

let server: EddyServer;
// The page (and its service worker) reach the server through this proxy, so "offline" cuts every
// request of the device, the worker's Background Sync replays included (context.setOffline does not).
let proxy: FaultProxy;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
const startedAt = Date.now();

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  proxy = await FaultProxy.start(server.url);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  proxy.follow(context);
  page = await context.newPage();
  token = await apiLogin(server.url, '100002', 'Demo-patient-2');
});

test.afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.cleanup();
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as T;
}

const toast = (text: string | RegExp) => page.getByText(text).first().waitFor({ timeout: 15_000 });
/**
 * The notice of a save made offline, then closed: every kind of entry says the same words, and a
 * notice raised again while shown is counted on it, so the next save's must be a new one.
 */
const savedOnDevice = async (online: string) => {
  const notice = page.getByRole('status').filter({ hasText: 'Saved on this device. It will be sent when you are back online.' });
  await notice.waitFor({ timeout: 15_000 });
  expect(await page.getByText(online).count()).toBe(0);
  await notice.getByRole('button', { name: 'Close notification' }).click();
  await notice.waitFor({ state: 'detached' });
};
const go = async (link: string) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
};

test.describe('a patient offline', () => {
  test('logs in online and has the data on the device', async () => {
    test.setTimeout(120_000);
    await uiLogin(page, proxy.url, '100002', 'Demo-patient-2');
    await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor({ timeout: 30_000 });
    // The profile screen has been visited once online, so it is on the device too.
    await go('Profile');
    await dateTimeField(page, 'Breakfast').waitFor({ timeout: 20_000 });
    await go('Dashboard');
    // The screens' code comes from the service worker's precache once the connection is gone.
    await offlineReady(page);
  });

  test('records a reading, a dose, an appointment and new meal times without a connection', async () => {
    test.setTimeout(90_000);
    await proxy.offline();
    await page
      .getByTestId('sync-badge')
      .getByText(/Offline/)
      .waitFor();

    await page.getByRole('radio', { name: 'Postprandial' }).check();
    await page.getByLabel('Glucose (mg/dL)').fill('166');
    await page.getByRole('button', { name: 'Save reading' }).click();
    await savedOnDevice('Glucose reported successfully');

    const metformin = page.getByTestId('medicines').getByRole('listitem').filter({ hasText: 'Metformin 500 mg tablet' });
    await metformin.getByRole('button', { name: 'Mark as taken' }).click();
    await savedOnDevice('Medicine recorded successfully');

    await page.getByTestId('appointments').getByRole('button', { name: 'Add appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add appointment' });
    await dialog.getByLabel('Doctor').fill('Dr. Offline');
    const day = new Date(Date.now() + 5 * 86_400_000);
    await fillDateTime(dateTimeField(dialog, 'Date and time'), `${new Date(day.getTime() - day.getTimezoneOffset() * 60_000).toISOString().slice(0, 11)}09:15`);
    await dialog.getByRole('button', { name: 'Add appointment' }).click();
    await savedOnDevice('Appointment added successfully');

    await go('Symptoms');
    await page.getByRole('combobox', { name: 'Symptom' }).fill('Tingling in the feet');
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await savedOnDevice('Symptom reported successfully');
    await screenshot(page, 'offline-symptoms-360');

    await go('Lab tests');
    await page.getByLabel('Test', { exact: true }).selectOption('Potassium');
    await page.getByLabel('Result', { exact: true }).fill('4,4');
    await page.getByRole('button', { name: 'Add result' }).click();
    await savedOnDevice('Lab test reported successfully');

    await go('Profile');
    await fillDateTime(dateTimeField(page, 'Breakfast'), '06:50');
    await fillDateTime(dateTimeField(page, 'Lunch'), '12:20');
    await fillDateTime(dateTimeField(page, 'Dinner'), '19:10');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await savedOnDevice('Notification timings saved successfully');
    await screenshot(page, 'offline-profile-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  test('still shows everything after a reload while offline', async () => {
    test.setTimeout(90_000);
    await page.reload();
    await dateTimeField(page, 'Breakfast').waitFor({ timeout: 30_000 });
    expect(await dateTimeValue(dateTimeField(page, 'Breakfast'))).toBe('06:50');
    await page
      .getByTestId('sync-badge')
      .getByText(/Offline/)
      .waitFor();
    await go('Dashboard');
    await todayShows(page, 'Postprandial', 166).waitFor({ timeout: 30_000 });
    await page
      .getByTestId('medicines')
      .getByRole('listitem')
      .filter({ hasText: 'Metformin 500 mg tablet' })
      .getByText(/Taken today at/)
      .waitFor();
    await page.getByTestId('appointments').getByText('Dr. Offline').waitFor();
    await go('Symptoms');
    await page.getByText('Tingling in the feet', { exact: true }).first().waitFor({ timeout: 20_000 });
    await go('Lab tests');
    await page
      .getByText(/4\.4 mmol\/L/)
      .first()
      .waitFor({ timeout: 20_000 });
    await go('Dashboard');
    await screenshot(page, 'offline-dashboard-360');
    // Nothing reached the server yet.
    expect((await serverReadings(server.url, token)).some((r) => r.value === 166 && Date.parse(r.recordedAt) >= startedAt)).toBe(false);
  });

  test('sends everything once when the connection returns', async () => {
    test.setTimeout(90_000);
    const sentAfter = Date.now();
    await proxy.online();
    await toast('Data synchronized successfully');
    const deadline = Date.now() + 45_000;
    for (;;) {
      // The demo data may hold a 166 of its own, from before this test.
      const readings = (await serverReadings(server.url, token)).filter((r) => r.value === 166 && Date.parse(r.recordedAt) >= startedAt);
      const { taken } = await api<{ taken: { prescrNo: string; takenAt: string }[] }>('/user/medicines/taken');
      const doses = taken.filter((t) => t.prescrNo === 'RX-100002-01' && Date.parse(t.takenAt) >= startedAt);
      const { appointments } = await api<{ appointments: { doctor: string }[] }>('/appointments');
      const { user } = await api<{ user: { notificationTimings: { breakfast: string; lunch: string; dinner: string } } }>('/users/');
      const { symptoms } = await api<{ symptoms: { symptom: string }[] }>('/symptoms');
      const { tests } = await api<{ tests: { name: string; value: number; recordedAt: string }[] }>('/tests');
      const tingling = symptoms.filter((x) => x.symptom === 'Tingling in the feet');
      const potassium = tests.filter((x) => x.name === 'Potassium' && x.value === 4.4);
      const done =
        readings.length > 0 &&
        doses.length > 0 &&
        appointments.some((a) => a.doctor === 'Dr. Offline') &&
        user.notificationTimings.breakfast === '06:50' &&
        tingling.length > 0 &&
        potassium.length > 0;
      if (done) {
        expect(readings).toHaveLength(1);
        expect(readings[0]?.type).toBe('Postprandial');
        // The reading keeps the time it was taken, not the time it was sent.
        expect(Date.parse(readings[0]?.recordedAt ?? '')).toBeLessThan(sentAfter);
        expect(doses).toHaveLength(1);
        expect(appointments.filter((a) => a.doctor === 'Dr. Offline')).toHaveLength(1);
        expect(user.notificationTimings).toEqual({ breakfast: '06:50', lunch: '12:20', dinner: '19:10' });
        expect(tingling).toHaveLength(1);
        expect(potassium).toHaveLength(1);
        break;
      }
      if (Date.now() > deadline) throw new Error('not everything reached the server');
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(await page.getByTestId('sync-badge').count()).toBe(0);
  });
});
