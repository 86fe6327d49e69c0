// The patient's dashboard (issue "Everything a patient does"): quick glucose entry in either unit
// with its safety checks, the latest readings against their targets, medicines marked taken,
// appointments; and the readings page it links to (issue 50): the trend chart and its table, the
// three lists with edit, delete and undo.
import { expect, test, dateTimeField, fillDateTime } from '../fixtures/index.ts';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import {
  apiLogin,
  coveredControls,
  launchChromium,
  openReadings,
  screenshot,
  seriousA11yViolations,
  serverReadings,
  startServer,
  uiLogin,
  type EddyServer,
  until,
} from '../fixtures/index.ts';

let server: EddyServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token: string;
/** The reading recorded by the test, followed through edit, delete and undo. */
let storedId: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  page = await context.newPage();
  token = await apiLogin(server.url, '100001', 'Demo-patient-1');
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as T;
}

const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 15_000 });

test.describe('dashboard', () => {
  test('greets the patient and shows the latest readings, medicines and appointments from the demo data', async () => {
    test.setTimeout(90_000);
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    await page.getByRole('heading', { level: 1, name: /Maria/ }).waitFor({ timeout: 30_000 });
    await page
      .getByTestId('latest-Fasting')
      .getByText(/In target|Above target|High|Low|Very/)
      .waitFor();
    await page.getByTestId('medicines').getByText('Metformin 500 mg tablet').waitFor();
    // Ended prescriptions are not shown.
    expect(await page.getByTestId('medicines').getByText('Sitagliptin 100 mg tablet').count()).toBe(0);
    await page.getByTestId('appointments').getByText('Dr. Sarah Chen').first().waitFor();
    await screenshot(page, 'dashboard-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  test('fits a phone better: a reading and a dose within a screen and a half, the page half as long as with every reading on it (issue 50)', async () => {
    const screen = 780;
    // The last "Mark as taken" and "Save reading" end within a screen and a half of the top.
    const lastDose = await page.getByTestId('medicines').getByRole('button', { name: 'Mark as taken' }).last().boundingBox();
    const save = await page.getByRole('button', { name: 'Save reading' }).boundingBox();
    const top = await page.evaluate(() => window.scrollY);
    expect(lastDose && lastDose.y + top + lastDose.height).toBeLessThanOrEqual(1.5 * screen);
    expect(save && save.y + top + save.height).toBeLessThanOrEqual(1.5 * screen);
    // The whole dashboard of the demo patient (3 medicines, 2 appointments, the reminders offer not
    // answered yet): 2,643 px, where it was 5,772 px with every reading on it. The goal is
    // about two screens (1,560 px): not reached yet (README, "The phone dashboard").
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(2_700);
  });

  test('at 200 % text on the phone the time of a reading keeps its date whole on one line and its time whole on the next (issue 50)', async () => {
    const field = dateTimeField(page, 'Time of the reading');
    // How many lines the parts of each kind stand on, by their tops.
    const date = ['year', 'month', 'day'];
    const time = ['hour', 'minute', 'dayPeriod'];
    const lines = async (types: string[]) => {
      const parts = await field
        .locator('[data-type]')
        .evaluateAll((els) => els.map((p) => ({ type: p.getAttribute('data-type') ?? '', top: Math.round(p.getBoundingClientRect().top) })));
      return new Set(parts.filter((p) => types.includes(p.type)).map((p) => p.top)).size;
    };
    // At the usual size, one line.
    expect(await lines([...date, ...time])).toBe(1);
    await page.evaluate(() => (document.documentElement.style.fontSize = '200%'));
    try {
      await expect.poll(() => lines([...date, ...time])).toBe(2);
      expect(await lines(date)).toBe(1);
      expect(await lines(time)).toBe(1);
    } finally {
      await page.evaluate(() => (document.documentElement.style.fontSize = ''));
    }
  });

  test('links to every reading and the trend, and back', async () => {
    test.setTimeout(60_000);
    await openReadings(page);
    await page.getByText(/readings in the last 14 days/).waitFor();
    await page.locator('.trend-canvas canvas').first().waitFor();
    for (const type of ['Fasting', 'Postprandial', 'Random']) await page.getByTestId(`glucose-list-${type}`).getByRole('listitem').first().waitFor();
    await screenshot(page, 'readings-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await coveredControls(page)).toEqual([]);
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByLabel('Glucose (mg/dL)').waitFor();
  });

  test('records a reading, refuses an implausible value and asks when a value looks like the other unit', async () => {
    test.setTimeout(90_000);
    await page.getByRole('radio', { name: 'Fasting' }).check();
    const value = page.getByLabel('Glucose (mg/dL)');
    await value.fill('700');
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByText('The value must be between 20 and 600 mg/dL. Please check the meter.').waitFor();
    await expect(value.inputValue()).resolves.toBe('700');

    await value.fill('6.5');
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByText('6.5 mg/dL is unusual. Did you mean 6.5 mmol/L?').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Nothing covers what must be tapped while the question waits (issue 50).
    expect(await coveredControls(page)).toEqual([]);
    // Nor does a toast: with the question at the screen's foot, where toasts stand, one raised now
    // stands at its head; with the question at the head, at the foot. And one toast at a time.
    const question = page.locator('.unit-question');
    const notice = (text: string) => page.evaluate((t) => window.dispatchEvent(new CustomEvent('eddy:toast', { detail: { type: 'info', text: t } })), text);
    const toastOverQuestion = () =>
      page.evaluate(() => {
        const t = document.querySelector('.toast')?.getBoundingClientRect();
        const q = document.querySelector('.unit-question')?.getBoundingClientRect();
        return t && q ? { overlaps: t.top < q.bottom && q.top < t.bottom, toastTop: Math.round(t.top) } : undefined;
      });
    await question.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await notice('A notice while a question is asked');
    await page.locator('.toast').getByText('A notice while a question is asked').waitFor();
    expect(await toastOverQuestion()).toMatchObject({ overlaps: false });
    expect((await toastOverQuestion())?.toastTop).toBeLessThan(200);
    await notice('A second notice');
    await notice('A third notice');
    expect(await page.locator('.toast').count()).toBe(1);
    await question.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.locator('.toast').getByText('A second notice').waitFor({ timeout: 5_000 });
    expect(await page.locator('.toast').count()).toBe(1);
    await expect.poll(async () => (await toastOverQuestion())?.overlaps).toBe(false);
    await page.locator('.toast').getByText('A third notice').waitFor({ timeout: 5_000 });
    expect(await page.locator('.toast').count()).toBe(1);
    await screenshot(page, 'dashboard-toast-clear-of-question-360');
    await page.getByRole('button', { name: 'Save as 6.5 mmol/L' }).click();
    await toast('Glucose reported successfully');
    // 6.5 mmol/L is stored as 117.1 mg/dL and shown as the latest Fasting reading as 117.
    await page.getByTestId('latest-Fasting').getByText('117', { exact: true }).first().waitFor();
    const stored = await until('the reading on the server', async () => (await serverReadings(server.url, token)).find((r) => r.value === 117.1));
    expect(stored.type).toBe('Fasting');
    storedId = stored._id;
  });

  test('answers a dangerous value with advice at once, never a success notice (issue 16)', async () => {
    test.setTimeout(60_000);
    // The notice of the reading saved before goes first, so none seen below can be an old one.
    await page.getByText('Glucose reported successfully').first().waitFor({ state: 'detached', timeout: 20_000 });
    await page.getByRole('radio', { name: 'Random' }).check();
    await page.getByLabel('Glucose (mg/dL)').fill('45');
    await page.getByRole('button', { name: 'Save reading' }).click();
    const low = page.getByRole('alertdialog', { name: 'Your glucose is very low' });
    await low.getByText(/^45 mg\/dL is below 54 mg\/dL: a serious low\. Take 15 g of fast-acting sugar now/).waitFor();
    await low.getByText('Your reading is saved.').waitFor();
    expect(await page.getByText('Glucose reported successfully').count()).toBe(0);
    await screenshot(page, 'dashboard-advice-low-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await low.getByRole('button', { name: 'I understand' }).click();
    await low.waitFor({ state: 'hidden' });

    await page.getByLabel('Glucose (mg/dL)').fill('600');
    await page.getByRole('button', { name: 'Save reading' }).click();
    const high = page.getByRole('alertdialog', { name: 'Your glucose is at the top of the meter’s range' });
    await high
      .getByText(
        /^600 mg\/dL is the top of a glucose meter’s range \(600 mg\/dL; above it meters show HI\), so your glucose may be even higher\. Get urgent medical help now/,
      )
      .waitFor();
    await high.getByRole('button', { name: 'I understand' }).click();
    await high.waitFor({ state: 'hidden' });
    // Both are saved like any other reading.
    await until('both on the server', async () => {
      const values = (await serverReadings(server.url, token)).map((r) => r.value);
      return values.includes(45) && values.includes(600) ? true : undefined;
    });
  });

  test('edits a reading and deletes one with confirmation and undo', async () => {
    test.setTimeout(90_000);
    await openReadings(page);
    const list = page.getByTestId('glucose-list-Fasting');
    await list.getByRole('button', { name: /^Edit reading 117 mg\/dL/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit reading' });
    await dialog.getByLabel('Glucose (mg/dL)').fill('121');
    await dialog.getByRole('radio', { name: 'Random' }).check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await toast('Reading updated');
    await page.getByTestId('glucose-list-Random').getByText('121', { exact: true }).first().waitFor();
    const edited = await until('the edit on the server', async () =>
      (await serverReadings(server.url, token)).find((r) => r._id === storedId && r.value === 121 && r.type === 'Random'),
    );

    await page
      .getByTestId('glucose-list-Random')
      .getByRole('button', { name: /^Delete reading 121 mg\/dL/ })
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete this reading?' });
    await screenshot(page, 'dashboard-delete-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast('Reading deleted');
    await until('the deletion on the server', async () => ((await serverReadings(server.url, token)).some((r) => r._id === edited._id) ? undefined : true));
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByTestId('glucose-list-Random').getByText('121', { exact: true }).first().waitFor();
    const restored = await until('the undone reading on the server', async () =>
      (await serverReadings(server.url, token)).find((r) => r.value === 121 && r.type === 'Random' && r.recordedAt === edited.recordedAt),
    );
    expect(restored._id).not.toBe(edited._id);
    expect(restored.recordedAt).toBe(edited.recordedAt);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  });

  test('marks a medicine as taken', async () => {
    test.setTimeout(90_000);
    const row = page.getByTestId('medicines').getByRole('listitem').filter({ hasText: 'Glimepiride 1 mg tablet' });
    await row.getByRole('button', { name: 'Mark as taken' }).click();
    await toast('Medicine recorded successfully');
    await row.getByText(/Taken today at/).waitFor();
    const taken = await until('the dose on the server', async () => {
      const { taken } = await api<{ taken: { prescrNo: string; takenAt: string }[] }>('/user/medicines/taken');
      return taken.find((t) => t.prescrNo === 'RX-100001-02' && Date.now() - Date.parse(t.takenAt) < 120_000);
    });
    expect(taken).toBeTruthy();
  });

  test('a second tap on "Mark as taken" records no second dose, and offers undo', async () => {
    test.setTimeout(90_000);
    const row = page.getByTestId('medicines').getByRole('listitem').filter({ hasText: 'Glimepiride 1 mg tablet' });
    const doses = async () =>
      (await api<{ taken: { _id: string; prescrNo: string; takenAt: string }[] }>('/user/medicines/taken')).taken.filter(
        (t) => t.prescrNo === 'RX-100001-02' && Date.now() - Date.parse(t.takenAt) < 10 * 60_000,
      );
    // Every dose this device sends (the page's sync and its service worker's replays alike).
    const sent: string[] = [];
    const onRequest = (r: Request) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/user/medicines/taken') sent.push(r.url());
    };
    context.on('request', onRequest);
    // Two quick taps: the first was recorded by the test before; neither of these records another.
    const button = row.getByRole('button', { name: 'Mark as taken' });
    await button.click();
    await button.click();
    const notice = row.getByTestId('already-taken');
    await notice.getByText(/Already recorded for (breakfast|lunch|dinner) at/).waitFor();
    // A dose either tap recorded would be in the outbox and sent at once: with the taps answered by
    // the notice and the outbox empty (no sync badge), a second dose would have been sent by now.
    await expect(page.getByTestId('sync-badge')).toHaveCount(0);
    context.off('request', onRequest);
    expect(sent).toEqual([]);
    expect(await doses()).toHaveLength(1);
    await screenshot(page, 'dose-already-taken-360');

    await notice.getByRole('button', { name: 'Undo that dose' }).click();
    await row.getByText('Not marked as taken today').waitFor();
    await until('the dose removed on the server', async () => ((await doses()).length === 0 ? true : undefined));
    // Marked again after the undo: one dose again.
    await button.click();
    await toast('Medicine recorded successfully');
    await until('one dose on the server', async () => ((await doses()).length === 1 ? true : undefined));
  });

  test('adds, edits and removes an appointment', async () => {
    test.setTimeout(90_000);
    const card = page.getByTestId('appointments');
    await card.getByRole('button', { name: 'Add appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add appointment' });
    await dialog.getByRole('button', { name: 'Add appointment' }).click();
    await dialog.getByText("Enter the doctor's name.").waitFor();
    await dialog.getByLabel('Doctor').fill('Dr. Mehta');
    const next = new Date(Date.now() + 3 * 86_400_000);
    const local = new Date(next.getTime() - next.getTimezoneOffset() * 60_000).toISOString().slice(0, 11) + '10:30';
    await fillDateTime(dateTimeField(dialog, 'Date and time'), local);
    await dialog.getByLabel('Notes (optional)').fill('Bring the logbook');
    await screenshot(page, 'dashboard-appointment-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add appointment' }).click();
    await toast('Appointment added successfully');
    type Appt = { _id: string; doctor: string; notes: string };
    const added = await until('the appointment on the server', async () =>
      (await api<{ appointments: Appt[] }>('/appointments')).appointments.find((a) => a.doctor === 'Dr. Mehta'),
    );
    expect(added.notes).toBe('Bring the logbook');

    await card.getByRole('button', { name: /^Edit appointment with Dr. Mehta/ }).click();
    await page.getByRole('dialog', { name: 'Edit appointment' }).getByLabel('Notes (optional)').fill('Fasting blood test first');
    await page.getByRole('dialog', { name: 'Edit appointment' }).getByRole('button', { name: 'Save changes' }).click();
    await toast('Appointment updated successfully');
    await until('the change on the server', async () =>
      (await api<{ appointments: Appt[] }>('/appointments')).appointments.find((a) => a._id === added._id && a.notes === 'Fasting blood test first'),
    );

    await card.getByRole('button', { name: /^Delete appointment with Dr. Mehta/ }).click();
    await page.getByRole('dialog', { name: 'Delete this appointment?' }).getByRole('button', { name: 'Delete' }).click();
    await toast('Appointment removed successfully');
    await until('the removal on the server', async () =>
      (await api<{ appointments: Appt[] }>('/appointments')).appointments.some((a) => a._id === added._id) ? undefined : true,
    );
  });

  test('keeps an appointment entered with a past date, as history (issue 16)', async () => {
    test.setTimeout(60_000);
    const card = page.getByTestId('appointments');
    await card.getByRole('button', { name: 'Add appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add appointment' });
    await dialog.getByLabel('Doctor').fill('Dr. Rao');
    const before = new Date(Date.now() - 5 * 86_400_000);
    await fillDateTime(
      dateTimeField(dialog, 'Date and time'),
      new Date(before.getTime() - before.getTimezoneOffset() * 60_000).toISOString().slice(0, 11) + '09:15',
    );
    await dialog.getByRole('button', { name: 'Add appointment' }).click();
    await toast('Appointment added to your past appointments');
    // Not among the upcoming ones, but under "Past appointments", and still editable.
    expect(await card.getByRole('button', { name: /^Edit appointment with Dr\. Rao/ }).count()).toBe(0);
    const past = page.getByTestId('past-appointments');
    await past.locator('summary').click();
    await past.getByRole('button', { name: /^Edit appointment with Dr\. Rao/ }).waitFor();
    await screenshot(page, 'dashboard-past-appointments-360');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await past.locator('summary').click();
  });

  test('shows the trend over other periods, as a table too, and in mmol/L', async () => {
    test.setTimeout(90_000);
    await openReadings(page);
    await page.getByRole('radio', { name: '90 days' }).check();
    await page.getByText(/readings in the last 90 days/).waitFor();
    await page.getByRole('button', { name: 'Show as table' }).click();
    await page.getByRole('table').waitFor();
    expect(await page.getByRole('table').getByRole('row').count()).toBeGreaterThan(60);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Show as chart' }).click();
    await page.evaluate(() => localStorage.setItem('eddy_user_glucose_unit', 'mmol/L'));
    await page.reload();
    await page.getByText(/in range \(3.9–10.0 mmol\/L\)/).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.getByLabel('Glucose (mmol/L)').waitFor({ timeout: 30_000 });
    await openReadings(page);
    await page.evaluate(() => localStorage.removeItem('eddy_user_glucose_unit'));
  });

  test('looks right on a wide screen and right to left', async () => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await page.locator('.trend-canvas canvas').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'readings-1280');
    await page.evaluate(() => (document.documentElement.dir = 'rtl'));
    await screenshot(page, 'readings-1280-rtl');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByTestId('latest-Fasting').waitFor({ timeout: 30_000 });
    await page.evaluate(() => (document.documentElement.dir = 'ltr'));
    await screenshot(page, 'dashboard-1280');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.evaluate(() => (document.documentElement.dir = 'rtl'));
    await screenshot(page, 'dashboard-1280-rtl');
    await page.setViewportSize({ width: 360, height: 780 });
    await screenshot(page, 'dashboard-360-rtl');
  });
});
