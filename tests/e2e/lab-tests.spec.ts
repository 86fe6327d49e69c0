// The lab tests screen in a real browser against the real server: results from the hospital's list
// (unit filled in, only the test's own units offered) or by name, changed in a dialog, deleted after
// asking (with undo), each test's trend drawn from the demo patient's seeded results, accessibility
// and small screens.
import { expect, test } from '../fixtures/index.ts';
import type { Browser, Page } from '@playwright/test';
import { apiLogin, launchChromium, screenshot, seriousA11yViolations, startServer, uiLogin, type EddyServer, until } from '../fixtures/index.ts';

let server: EddyServer;
let browser: Browser;
let page: Page;

interface ServerTest {
  _id: string;
  name: string;
  value: number;
  unit: string | null;
  recordedAt: string;
}

async function serverTests(hospNo: string, password: string): Promise<ServerTest[]> {
  const token = await apiLogin(server.url, hospNo, password);
  const res = await fetch(`${server.url}/api/tests`, { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { tests: ServerTest[] }).tests;
}
const mine = () => serverTests('100001', 'Demo-patient-1');

const card = (name: string) => page.getByRole('article', { name, exact: true });
/** A row of a test's list of results. */
const result = (name: string, text: string) => card(name).getByRole('listitem').getByText(text, { exact: true });
const field = (label: string) => page.getByLabel(label, { exact: true });
const pad = (n: number) => String(n).padStart(2, '0');
const dateInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

test.describe('lab tests screen', () => {
  test.describe.configure({ timeout: 60_000 });
  test('tells a patient without results what to do', async () => {
    // Patient 100002's seeded results are deleted first, in a context of its own.
    const token = await apiLogin(server.url, '100002', 'Demo-patient-2');
    for (const t of await serverTests('100002', 'Demo-patient-2')) {
      await fetch(`${server.url}/api/tests/delete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ testId: t._id }),
      });
    }
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    const other = await context.newPage();
    await uiLogin(other, server.url, '100002', 'Demo-patient-2');
    await other.getByRole('link', { name: 'Lab tests' }).click();
    await other.getByText('No lab results yet.', { exact: false }).waitFor({ timeout: 15_000 });
    expect(await seriousA11yViolations(other)).toEqual([]);
    await screenshot(other, 'lab-tests-empty-360');
    await context.close();
  });

  test('shows each test’s latest value and the trend of the seeded results', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    await page.getByRole('link', { name: 'Lab tests' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lab tests' }).waitFor();
    expect(await page.title()).toBe('Lab tests | Eddy - Diabetes Management');
    const seeded = (await mine()).filter((t) => t.name === 'HbA1c').sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
    expect(seeded.length).toBeGreaterThanOrEqual(3);
    const hba1c = card('HbA1c');
    await hba1c.waitFor();
    // The trend: an image named by the sentence beside it, from the oldest to the latest value.
    // Every result of a test with the same decimals: a demo HbA1c of 7 reads "7.0" beside "7.3".
    const digits = Math.max(...seeded.map((t) => /\.(\d+)$/.exec(String(t.value))?.[1]?.length ?? 0));
    const fmt = (v: number | undefined) => new Intl.NumberFormat('en', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v ?? NaN);
    const trend = hba1c.getByRole('img', { name: `HbA1c: ${fmt(seeded[0]?.value)} % → ${fmt(seeded.at(-1)?.value)} % over 2 months` });
    await trend.waitFor();
    expect(await trend.locator('circle').count()).toBe(seeded.length);
    expect(await hba1c.locator('.lab-latest-value').textContent()).toBe(`${fmt(seeded.at(-1)?.value)} %`);
    expect(await hba1c.getByRole('listitem').count()).toBe(seeded.length);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'lab-tests-filled-360');
  });

  test('offers a listed test only its own units, so HbA1c 75 cannot be saved in a made-up one', async () => {
    await field('Test').selectOption('HbA1c');
    const unit = field('Unit');
    expect(await unit.evaluate((el) => el.tagName)).toBe('SELECT');
    expect(await unit.locator('option').allTextContents()).toEqual(['%', 'mmol/mol']);
    expect(await unit.inputValue()).toBe('%');
    await page.getByText('HbA1c is recorded in % or mmol/mol: choose the one on your lab report.', { exact: false }).waitFor();
    // Nothing else can be chosen, typed or pasted into it.
    await expect(unit.selectOption('pct', { timeout: 1000 })).rejects.toThrow();
    await field('Result').fill('75');
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.getByRole('alert').filter({ hasText: 'HbA1c results lie between 3 and 20 %. Please check the result.' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await card('HbA1c').getByText('75', { exact: false }).count()).toBe(0);
    expect((await mine()).filter((t) => t.value === 75)).toEqual([]);
  });

  test('adds a result from the list with its unit filled in', async () => {
    await field('Test').selectOption('Potassium');
    expect(await field('Unit').inputValue()).toBe('mmol/L');
    expect(await field('Date of the test').inputValue()).toBe(dateInput(new Date()));
    // A result no assay gives is refused before it is stored (issue 16); what was typed stays.
    await field('Result').fill('42');
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.getByRole('alert').filter({ hasText: 'Potassium results lie between 1.5 and 10 mmol/L. Please check the result.' }).waitFor();
    expect(await field('Result').inputValue()).toBe('42');
    await field('Result').fill('4,2');
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.getByText('Lab test reported successfully').first().waitFor();
    await result('Potassium', '4.2 mmol/L').waitFor();
    const [row] = await until('the result on the server', async () => {
      const rows = (await mine()).filter((t) => t.name === 'Potassium');
      return rows.length ? rows : undefined;
    });
    expect(row).toMatchObject({ value: 4.2, unit: 'mmol/L' });
    expect(new Date(row?.recordedAt ?? '').getTime()).toBeLessThanOrEqual(Date.now());
  });

  test('adds another test by name, on an earlier day, and says what is wrong first', async () => {
    await field('Test').selectOption({ label: 'Another test…' });
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.getByRole('alert').filter({ hasText: 'Type the name of the test.' }).waitFor();
    await field('Name of the test').fill('Vitamin D');
    await field('Result').fill('abc');
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.getByRole('alert').filter({ hasText: 'Enter the result as a number' }).waitFor();
    expect(await field('Name of the test').inputValue()).toBe('Vitamin D');
    await field('Result').fill('31.5');
    await field('Unit').fill('ng/mL');
    const day = new Date();
    day.setDate(day.getDate() - 10);
    await field('Date of the test').fill(dateInput(day));
    await page.getByRole('button', { name: 'Add result' }).click();
    await result('Vitamin D', '31.5 ng/mL').waitFor();
    const [row] = await until('the result on the server', async () => {
      const rows = (await mine()).filter((t) => t.name === 'Vitamin D');
      return rows.length ? rows : undefined;
    });
    // A day without a time is stored at local noon of that day.
    expect(row).toMatchObject({ value: 31.5, unit: 'ng/mL', recordedAt: new Date(day.getFullYear(), day.getMonth(), day.getDate(), 12).toISOString() });
  });

  test('changes a result in a dialog', async () => {
    const before = (await mine()).find((t) => t.name === 'Potassium');
    await card('Potassium')
      .getByRole('button', { name: /^Change Potassium result of / })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Change result: Potassium' });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Result', { exact: true }).inputValue()).toBe('4.2');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'lab-tests-edit-360');
    await dialog.getByLabel('Result', { exact: true }).fill('4.6');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Lab test updated successfully').first().waitFor();
    await result('Potassium', '4.6 mmol/L').waitFor();
    await until('the change on the server', async () => ((await mine()).find((t) => t._id === before?._id)?.value === 4.6 ? true : undefined));
    expect((await mine()).filter((t) => t.name === 'Potassium')).toHaveLength(1);
  });

  test('deletes a result after asking, and undo brings it back', async () => {
    await card('Vitamin D')
      .getByRole('button', { name: /^Delete Vitamin D result of / })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete this result?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Vitamin D: 31.5 ng/mL');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'lab-tests-confirm-360');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Lab test deleted successfully').waitFor();
    const undo = page.getByRole('button', { name: 'Undo' });
    // Holding the focus on Undo keeps the notice open while the deletion reaches the server.
    await undo.focus();
    await until('the card gone', async () => ((await card('Vitamin D').count()) === 0 ? true : undefined));
    await until('the result gone from the server', async () => ((await mine()).some((t) => t.name === 'Vitamin D') ? undefined : true));
    await undo.click();
    await result('Vitamin D', '31.5 ng/mL').waitFor();
    await until('the result back on the server', async () => ((await mine()).filter((t) => t.name === 'Vitamin D').length === 1 ? true : undefined));
  });

  test('is accessible and fits on a phone, a desktop and right to left', async () => {
    await until('every entry sent', async () => ((await page.getByTestId('sync-badge').count()) === 0 ? true : undefined));
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'lab-tests-filled-1280');
    await page.evaluate(() => (document.documentElement.dir = 'rtl'));
    await page.setViewportSize({ width: 360, height: 780 });
    await screenshot(page, 'lab-tests-rtl-360');
    await page.evaluate(() => (document.documentElement.dir = 'ltr'));
  });
});
