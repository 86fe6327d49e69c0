// Issue 16: a patient who reads mmol/L is judged in mmol/L everywhere. 10.0 mmol/L (stored as
// 180.2 mg/dL) is the upper edge of the consensus range and 13.9 (250.4 mg/dL) the upper edge of
// "high"; judged against the mg/dL edges they were "Above target" and "very high". Here a patient
// types both and sees the consensus' words on the dashboard, its shares in the report and the same
// in the PDF made on the device.
import { expect, test } from '../fixtures/index.ts';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { apiLogin, launchChromium, openReadings, screenshot, serverReadings, startServer, uiLogin, until, type EddyServer } from '../fixtures/index.ts';

let server: EddyServer;
let browser: Browser;
let page: Page;
let work: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
  work = await mkdtemp(path.join(tmpdir(), 'eddy-units-'));
  // Patient 100002's seeded readings go first, so the report holds only the two typed here.
  const token = await apiLogin(server.url, '100002', 'Demo-patient-2');
  for (const r of await serverReadings(server.url, token)) {
    const res = await fetch(`${server.url}/api/glucose/delete`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ glucoseId: r._id }),
    });
    expect(res.status).toBe(200);
  }
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

const squash = (s: string) => s.replace(/\s+/g, ' ');

test('a mmol/L patient’s 10.0 is in range and 13.9 high: on the dashboard, in the report and in its PDF', async () => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ viewport: { width: 360, height: 780 }, acceptDownloads: true });
  // The patient reads mmol/L on this device (the choice in Profile lives in local storage).
  await context.addInitScript(() => localStorage.setItem('eddy_user_glucose_unit', 'mmol/L'));
  page = await context.newPage();
  await uiLogin(page, server.url, '100002', 'Demo-patient-2');
  const value = page.getByLabel('Glucose (mmol/L)');
  await value.waitFor({ timeout: 30_000 });
  for (const typed of ['10.0', '13.9']) {
    await page.getByRole('radio', { name: 'Random' }).check();
    await value.fill(typed);
    await page.getByRole('button', { name: 'Save reading' }).click();
    await page.getByText('Glucose reported successfully', { exact: true }).first().waitFor({ timeout: 15_000 });
    await page.getByText('Glucose reported successfully', { exact: true }).first().waitFor({ state: 'detached', timeout: 15_000 });
  }
  const token = await apiLogin(server.url, '100002', 'Demo-patient-2');
  const stored = await until('both readings on the server', async () => {
    const readings = (await serverReadings(server.url, token))
      .map(({ value, unit, enteredValue }) => ({ value, unit, enteredValue }))
      .sort((a, b) => a.value - b.value);
    return readings.length === 2 ? readings : undefined;
  });
  // mg/dL for every calculation, the unit and number as typed beside it.
  expect(stored).toEqual([
    { value: 180.2, unit: 'mmol/L', enteredValue: 10 },
    { value: 250.4, unit: 'mmol/L', enteredValue: 13.9 },
  ]);

  // The dashboard: the latest Random reading and the list, each with the consensus' word.
  await expect(page.getByTestId('latest-Random')).toContainText('13.9');
  await expect(page.getByTestId('latest-Random')).toContainText('High');
  await expect(page.getByTestId('latest-Random')).not.toContainText('Very high');
  await screenshot(page, 'units-mmol-dashboard-360');
  await openReadings(page);
  const list = page.getByTestId('glucose-list-Random');
  await expect(list.getByRole('listitem').filter({ hasText: '10.0' })).toContainText('In target');
  await expect(list.getByRole('listitem').filter({ hasText: '13.9' })).toContainText('High');
  await screenshot(page, 'units-mmol-readings-360');

  // A look in mg/dL and back: 10.0 reads 10.0 again, and an edit that leaves the value alone keeps it.
  const nav = page.getByRole('navigation', { name: 'Main' });
  const chooseUnit = async (unit: string) => {
    await nav.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('radio', { name: unit, exact: true }).check();
    await openReadings(page);
  };
  await chooseUnit('mg/dL');
  await expect(list.getByRole('listitem').filter({ hasText: '180' })).toContainText('In target');
  await expect(list).not.toContainText('10.0');
  await chooseUnit('mmol/L');
  const ten = list.getByRole('listitem').filter({ hasText: '10.0' });
  await expect(ten).toContainText('In target');
  await ten.getByRole('button', { name: /^Edit reading 10\.0 mmol\/L/ }).click();
  await expect(page.getByRole('dialog').getByLabel('Glucose (mmol/L)')).toHaveValue('10.0');
  await page.getByRole('dialog').getByRole('radio', { name: 'Postprandial' }).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Save changes' }).click();
  await page.getByTestId('glucose-list-Postprandial').getByText('10.0', { exact: true }).waitFor();
  const edited = await until('the edit on the server', async () => (await serverReadings(server.url, token)).find((r) => r.type === 'Postprandial'));
  expect(edited).toMatchObject({ value: 180.2, unit: 'mmol/L', enteredValue: 10 });

  // The report: half in range (3.9–10.0), half high (10.1–13.9), none very high.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await page.getByTestId('report').waitFor({ timeout: 30_000 });
  await page.getByRole('radio', { name: '7 days' }).check();
  const band = (b: string) => page.locator(`tr[data-band="${b}"]`);
  await expect(band('inRange')).toContainText('3.9–10.0');
  await expect(band('inRange')).toContainText('50%');
  await expect(band('high')).toContainText('10.1–13.9');
  await expect(band('high')).toContainText('50%');
  await expect(band('veryHigh')).toContainText('0%');
  await screenshot(page, 'units-mmol-report-360');

  // The PDF made on the device says the same.
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.getByRole('button', { name: 'Download PDF' }).first().click(),
  ]);
  const file = path.join(work, 'mmol.pdf');
  await download.saveAs(file);
  const text = squash(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));
  expect(text).toMatch(/In range 3\.9–10\.0 50% \(1\)/);
  expect(text).toMatch(/High 10\.1–13\.9 50% \(1\)/);
  expect(text).toMatch(/Very high above 13\.9 0% \(0\)/);
  await context.close();
});
