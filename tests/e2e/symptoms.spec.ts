// The symptoms screen in a real browser against the real server: reporting from the hospital's list
// or in one's own words, one report per symptom per day (on the device, and across devices through
// the server's 409), removal with confirmation and undo, accessibility and small screens.
import { expect, test } from '../fixtures/index.ts';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { apiLogin, launchChromium, screenshot, seriousA11yViolations, startServer, uiLogin, type EddyServer, until } from '../fixtures/index.ts';

const HOSP_NO = '100002';
const PASSWORD = 'Demo-patient-2';

let server: EddyServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

interface ServerSymptom {
  _id: string;
  symptom: string;
  recordedAt: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dayKey = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

async function api(path: string, body?: object): Promise<Response> {
  return fetch(`${server.url}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

async function serverSymptoms(): Promise<ServerSymptom[]> {
  return ((await (await api('/symptoms')).json()) as { symptoms: ServerSymptom[] }).symptoms;
}

/** The server's reports of `name` made today (the device's day). */
async function onServerToday(name: string): Promise<ServerSymptom[]> {
  const today = dayKey(new Date());
  return (await serverSymptoms()).filter((s) => s.symptom === name && dayKey(new Date(s.recordedAt)) === today);
}

const today = () => page.getByRole('region', { name: 'Today' });
const entriesToday = (name: string) => today().getByText(name, { exact: true });
const symptomField = () => page.getByRole('combobox', { name: 'Symptom' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  token = await apiLogin(server.url, HOSP_NO, PASSWORD);
  // The demo patient starts with reports of earlier days; removed here so the empty state shows.
  for (const s of await serverSymptoms()) await api('/symptoms/remove', { _id: s._id, symptom: s.symptom, recordedAt: s.recordedAt });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => process.stderr.write(`[symptoms e2e] page error: ${err.message}\n`));
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

test.describe('symptoms screen', () => {
  test.describe.configure({ timeout: 60_000 });
  test('shows what to do when nothing is reported yet', async () => {
    expect(await serverSymptoms()).toEqual([]);
    await uiLogin(page, server.url, HOSP_NO, PASSWORD);
    await page.getByRole('link', { name: 'Symptoms' }).click();
    await page.getByRole('heading', { level: 1, name: 'Symptoms' }).waitFor();
    await page.getByText('No symptoms reported yet.', { exact: false }).waitFor();
    expect(await page.title()).toBe('Symptoms | Eddy - Diabetes Management');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'symptoms-empty-360');
  });

  test('reports a symptom found by typing, with the pointer and with the keyboard', async () => {
    // The reference list arrives with the first pull.
    await symptomField().click();
    await symptomField().fill('dizz');
    await page.getByRole('option', { name: 'Dizziness' }).waitFor();
    expect(await page.getByRole('option').count()).toBe(1);
    await page.getByRole('option', { name: 'Dizziness' }).click();
    expect(await symptomField().inputValue()).toBe('Dizziness');
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await page.getByText('Symptom reported successfully').first().waitFor();
    await entriesToday('Dizziness').waitFor();
    expect(await symptomField().inputValue()).toBe('');

    // Keyboard only: type, arrow down to the suggestion, Enter picks it, Enter again reports it.
    await symptomField().focus();
    await page.keyboard.type('head');
    expect(await symptomField().getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByRole('option', { name: 'Headache' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    expect(await symptomField().inputValue()).toBe('Headache');
    expect(await symptomField().getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await entriesToday('Headache').waitFor();
    await until('both reports on the server', async () =>
      (await onServerToday('Dizziness')).length === 1 && (await onServerToday('Headache')).length === 1 ? true : undefined,
    );
  });

  test('refuses a second report of the same symptom today, whatever its case, and writes nothing', async () => {
    // Every report this device sends (the page's sync and its service worker's replays alike).
    const sent: string[] = [];
    const onRequest = (r: Request) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/symptoms/add') sent.push(r.url());
    };
    context.on('request', onRequest);
    await symptomField().fill('  dizziness ');
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await page.getByRole('alert').filter({ hasText: "You've already reported Dizziness today" }).waitFor();
    // What was typed stays, so it can be corrected.
    expect(await symptomField().inputValue()).toBe('  dizziness ');
    expect(await entriesToday('Dizziness').count()).toBe(1);
    // A (wrong) report would be in the outbox and sent at once: with the refusal shown and the outbox
    // empty (no sync badge), it would have been sent by now.
    await expect(page.getByTestId('sync-badge')).toHaveCount(0);
    context.off('request', onRequest);
    expect(sent).toEqual([]);
    expect(await onServerToday('Dizziness')).toHaveLength(1);
    await symptomField().fill('');
  });

  test('reports a symptom in the patient’s own words', async () => {
    const own = 'Tingling in my left hand';
    await symptomField().fill(`  ${own}  `);
    expect(await page.getByRole('option').count()).toBe(0);
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await page.getByText('Symptom reported successfully').first().waitFor();
    await entriesToday(own).waitFor();
    await until('the own symptom on the server', async () => ((await onServerToday(own)).length === 1 ? true : undefined));
    // Empty and over-long names are refused with a message.
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await page.getByRole('alert').filter({ hasText: 'Type a symptom or pick one from the list.' }).waitFor();
    await symptomField().fill('x'.repeat(101));
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await page.getByRole('alert').filter({ hasText: 'at most 100 characters' }).waitFor();
    await symptomField().fill('');
  });

  test('shows the server’s refusal when another device reported the same symptom today (409)', async () => {
    // Another device reports Nausea; this device has not pulled it yet, so its own check passes.
    const res = await api('/symptoms/add', { symptom: 'Nausea' });
    expect(res.status).toBe(201);
    await symptomField().fill('Nausea');
    await page.getByRole('button', { name: 'Report symptom' }).click();
    await page.getByRole('alert').filter({ hasText: "You've already reported Nausea today" }).waitFor({ timeout: 20_000 });
    expect(await onServerToday('Nausea')).toHaveLength(1);
    // The refused copy leaves the device with the next pull; the server's report remains, once.
    // Until that pull the device may still show its own copy: wait for the server's one alone.
    const [kept] = await onServerToday('Nausea');
    await until('only the server’s Nausea report on the device', async () =>
      (await entriesToday('Nausea').count()) === 1 && (await today().locator(`time[datetime="${kept?.recordedAt}"]`).count()) === 1 ? true : undefined,
    );
  });

  test('removes a report after asking, on the server too, and undo brings it back', async () => {
    const own = 'Tingling in my left hand';
    await page.getByRole('button', { name: new RegExp(`^Remove ${own} at `) }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this report?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(own);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'symptoms-confirm-360');
    // Cancel keeps it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await entriesToday(own).count()).toBe(1);

    await page.getByRole('button', { name: new RegExp(`^Remove ${own} at `) }).click();
    await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByText('Symptom removed successfully').waitFor();
    // Holding the focus on Undo keeps the notice open while the removal reaches the server.
    const undo = page.getByRole('button', { name: 'Undo' });
    await undo.focus();
    await until('the report gone from the screen', async () => ((await entriesToday(own).count()) === 0 ? true : undefined));
    await until('the report gone from the server', async () => ((await onServerToday(own)).length === 0 ? true : undefined));

    await undo.click();
    await entriesToday(own).waitFor();
    await until('the report back on the server', async () => ((await onServerToday(own)).length === 1 ? true : undefined));
  });

  test('is accessible and fits on a phone, a desktop and right to left', async () => {
    await until('every entry sent', async () => ((await page.getByTestId('sync-badge').count()) === 0 ? true : undefined));
    expect(await seriousA11yViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'symptoms-filled-360');
    // The suggestions open over the form.
    await symptomField().fill('f');
    await page.getByRole('option').first().waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'symptoms-suggestions-360');
    await symptomField().fill('');
    await page.setViewportSize({ width: 1280, height: 900 });
    await screenshot(page, 'symptoms-filled-1280');
    await page.evaluate(() => (document.documentElement.dir = 'rtl'));
    await page.setViewportSize({ width: 360, height: 780 });
    await screenshot(page, 'symptoms-rtl-360');
    await page.evaluate(() => (document.documentElement.dir = 'ltr'));
  });
});
