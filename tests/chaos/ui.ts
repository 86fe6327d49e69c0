// How a chaos run drives the patient app, screen by screen, through the real UI (the selectors are
// those of tests/e2e/*.spec.ts), and how it reads back what a device holds: the lists the screens
// show, and the device's sealed outbox (rows counted, never opened).
import type { Locator, Page } from '@playwright/test';
import { saveReading } from '../fixtures/browser.ts';
import { dateTimeField, dateTimeValue, fillDateTime } from '../fixtures/date-time.ts';

const T = 20_000;
export const GLUCOSE = /^Glucose \((mg\/dL|mmol\/L)\)$/;

export type Screen = 'Dashboard' | 'Readings' | 'Symptoms' | 'Lab tests' | 'Profile';

/**
 * The app is up on the dashboard (after a load, a reload or a new tab). A device that lands on the
 * login page or on its lock screen instead was logged out, which no fault of a chaos run should do
 * unless it ended the session (a server restored or given a new database: the run logs the patient
 * in again there): that fails at once, with what the device holds (storage keys and databases, never
 * their contents) and what it says.
 */
export async function appReady(page: Page): Promise<void> {
  // The app: the dashboard's entry form, or the readings page a reload left the page on.
  const app = page.getByLabel(GLUCOSE).first().or(readingsHeading(page));
  const login = page.getByRole('button', { name: 'Log in', exact: true });
  const locked = lockScreen(page);
  const deadline = Date.now() + 45_000;
  let shows = 'the login page';
  for (;;) {
    await app
      .or(login)
      .or(locked)
      .first()
      .waitFor({ timeout: Math.max(1, deadline - Date.now()) });
    if (await app.isVisible()) return;
    if (await login.isVisible()) break;
    if (await locked.isVisible()) {
      shows = 'its lock screen ("Your session has ended")';
      break;
    }
    // Neither: the page was shown and is being replaced, as when a new version of the app takes
    // over and reloads it (seed 2361826370: the dashboard showed, the page reloaded, and the check
    // took the page in between for the login page).
  }
  const held = await page.evaluate(async () => ({
    url: location.pathname,
    localStorage: Object.keys(localStorage).sort(),
    indexedDB: (await indexedDB.databases()).map((d) => d.name).sort(),
    shown: [...document.querySelectorAll('[role=status], [role=alert]')].map((e) => e.textContent?.trim()).filter(Boolean),
  }));
  throw new Error(`the device shows ${shows}, logged out: ${JSON.stringify(held)}`);
}

/** The readings page's heading (every reading by type and the trend, reached from the dashboard). */
function readingsHeading(page: Page): Locator {
  return page.getByRole('heading', { level: 1, name: 'Your readings' });
}

/** The lock screen a device shows once its session has ended (a 401: src/routes/app.tsx, SessionEnded). */
export function lockScreen(page: Page): Locator {
  return page.getByRole('heading', { level: 1, name: 'Your session has ended' });
}

/**
 * What the page shows once it has loaded: the app, the lock screen of a session that ended, or the
 * login page. Waits up to `ms` for one of them.
 */
export async function sessionShown(page: Page, ms = T): Promise<'app' | 'locked' | 'login'> {
  // The app: the dashboard's entry form, or the readings page a page was left on.
  const app = page.getByLabel(GLUCOSE).first().or(readingsHeading(page));
  const login = page.getByRole('button', { name: 'Log in', exact: true });
  const locked = lockScreen(page);
  const deadline = Date.now() + ms;
  for (;;) {
    await app
      .or(login)
      .or(locked)
      .first()
      .waitFor({ timeout: Math.max(1, deadline - Date.now()) });
    if (await locked.isVisible()) return 'locked';
    if (await login.isVisible()) return 'login';
    if (await app.isVisible()) return 'app';
  }
}

/** Whether the page shows, now, the lock screen of a session that ended or the login page. */
export async function sessionEndedShown(page: Page): Promise<boolean> {
  const login = page.getByRole('button', { name: 'Log in', exact: true });
  return (
    (await lockScreen(page)
      .isVisible()
      .catch(() => false)) || (await login.isVisible().catch(() => false))
  );
}

/**
 * The patient logs in again after their session ended: "Log in again" on the lock screen (or the
 * login page as it is), the same hospital number and password, and the app back on the dashboard.
 */
export async function logInAgain(page: Page, hospNo: string, password: string): Promise<void> {
  const again = page.getByRole('button', { name: 'Log in again' });
  // The lock screen shows at once, and the app opens the login page itself once the lock is done: a
  // tap on "Log in again" can meet the page already going there (seed 96657459, the button detached
  // under the click). Either way the login form comes next, which the fill below waits for.
  if (await again.isVisible()) await again.click({ timeout: 5_000 }).catch(() => undefined);
  await page.getByLabel('Hospital number').fill(hospNo);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/app$/, { timeout: 45_000 });
  await appReady(page);
}

/** The screen the page is on has loaded (after a reload, which stays on that screen). */
export async function screenReady(page: Page): Promise<void> {
  await shown(page, screenOf(page));
}

export async function go(page: Page, screen: Screen): Promise<void> {
  if (screen === 'Readings') {
    // Every reading and the trend: reached from the dashboard's latest readings (issue 50).
    await ensure(page, 'Dashboard');
    await page.getByTestId('all-readings').click();
  } else await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen }).click();
  await shown(page, screen);
}

async function shown(page: Page, screen: Screen): Promise<void> {
  if (screen === 'Dashboard') await appReady(page);
  else if (screen === 'Readings') {
    // After a reload the page may show the lock screen or the login page instead: appReady then
    // says so, with what the device holds.
    const heading = readingsHeading(page);
    await heading
      .or(page.getByRole('button', { name: 'Log in', exact: true }))
      .or(lockScreen(page))
      .first()
      .waitFor({ timeout: T });
    if (!(await heading.isVisible())) await appReady(page);
  } else if (screen === 'Profile') await dateTimeField(page, 'Breakfast').waitFor({ timeout: T });
  else await page.getByRole('heading', { level: 1, name: screen }).waitFor({ timeout: T });
}

/**
 * What a page shows now, in one line, for a run that crashed waiting on it: its path, the notices
 * and alerts on screen, and any dialog open (a CI log is often all there is to read).
 */
export async function onScreen(page: Page): Promise<string> {
  const path = new URL(page.url()).pathname;
  const shownNow = await page
    .evaluate(() => {
      const texts = (selector: string) =>
        [...document.querySelectorAll(selector)]
          .filter((el) => el.getClientRects().length > 0)
          .map((el) => (el.textContent ?? '').trim())
          .filter(Boolean);
      return [
        `notices: ${JSON.stringify(texts('[role="status"]'))}`,
        `alerts: ${JSON.stringify(texts('[role="alert"], [role="alertdialog"]'))}`,
        `dialogs: ${JSON.stringify(texts('dialog[open] h2'))}`,
      ].join('; ');
    })
    .catch((err: unknown) => `unreadable (${String(err).split('\n')[0]})`);
  return `${path}: ${shownNow}`;
}

/** Where the page is now. */
export function screenOf(page: Page): Screen {
  const p = new URL(page.url()).pathname;
  if (p.endsWith('/readings')) return 'Readings';
  if (p.endsWith('/symptoms')) return 'Symptoms';
  if (p.endsWith('/tests')) return 'Lab tests';
  if (p.endsWith('/profile')) return 'Profile';
  return 'Dashboard';
}

export async function ensure(page: Page, screen: Screen): Promise<void> {
  if (screenOf(page) !== screen) await go(page, screen);
}

/**
 * Waits until a glucose list holds all it will show: the readings page reads its first 14 days
 * before its 90, and the list says it is busy (and offers no "Show more") until then.
 */
async function complete(list: Locator): Promise<void> {
  await list.and(list.page().locator(':not([aria-busy="true"])')).waitFor({ timeout: T });
}

/** Clicks "Show more" in a glucose list until `target` is there (or nothing more is shown). */
async function reveal(list: Locator, target: Locator): Promise<void> {
  await complete(list);
  for (let i = 0; i < 40; i++) {
    if ((await target.count()) > 0) return;
    const more = list.getByRole('button', { name: /^Show more/ });
    if ((await more.count()) === 0) return;
    await more.click();
  }
}

// ---- glucose (recorded on the dashboard, listed on the readings page) ----

export async function addGlucose(page: Page, value: number): Promise<void> {
  await ensure(page, 'Dashboard');
  await page.getByRole('radio', { name: 'Random' }).first().check();
  await page.getByLabel(GLUCOSE).first().fill(String(value));
  await saveReading(page, value);
  await go(page, 'Readings');
  const list = page.getByTestId('glucose-list-Random');
  const shown = list.getByText(String(value), { exact: true });
  await reveal(list, shown);
  await shown.first().waitFor({ timeout: T });
}

export async function editGlucose(page: Page, from: number, to: number): Promise<void> {
  await ensure(page, 'Readings');
  const list = page.getByTestId('glucose-list-Random');
  const button = list.getByRole('button', { name: new RegExp(`^Edit reading ${from} mg/dL`) });
  await reveal(list, button);
  await button.first().click();
  const dialog = page.getByRole('dialog', { name: 'Edit reading' });
  await dialog.getByLabel(GLUCOSE).fill(String(to));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.waitFor({ state: 'detached', timeout: T });
  const shown = list.getByText(String(to), { exact: true });
  await reveal(list, shown);
  await shown.first().waitFor({ timeout: T });
}

export async function deleteGlucose(page: Page, value: number): Promise<void> {
  await ensure(page, 'Readings');
  const list = page.getByTestId('glucose-list-Random');
  const button = list.getByRole('button', { name: new RegExp(`^Delete reading ${value} mg/dL`) });
  await reveal(list, button);
  await button.first().click();
  await page.getByRole('dialog', { name: 'Delete this reading?' }).getByRole('button', { name: 'Delete' }).click();
  await list.getByRole('button', { name: new RegExp(`^Delete reading ${value} mg/dL`) }).waitFor({ state: 'detached', timeout: T });
}

/** Every reading a glucose list shows (all pages), as rounded mg/dL values, newest first. */
export async function glucoseShown(page: Page, type: 'Fasting' | 'Postprandial' | 'Random'): Promise<number[]> {
  await ensure(page, 'Readings');
  const list = page.getByTestId(`glucose-list-${type}`);
  // After a reload the lists render a moment after the entry form: read them once they have (a
  // reading or the empty state), never before (an empty read would look like a lost record).
  await list.locator('.reading-value').or(list.getByText('No readings yet.')).first().waitFor({ timeout: T });
  await complete(list);
  for (let i = 0; i < 60; i++) {
    const more = list.getByRole('button', { name: /^Show more/ });
    if ((await more.count()) === 0) break;
    await more.click();
  }
  const texts = await list.locator('.reading-value').allTextContents();
  return texts.map((t) => Number(t.replace(/[^\d.]/g, '')));
}

// ---- appointments (dashboard) ----

function localInput(ms: number): string {
  const d = new Date(ms);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export async function addAppointment(page: Page, doctor: string, notes: string, at: number): Promise<void> {
  await ensure(page, 'Dashboard');
  const card = page.getByTestId('appointments');
  await card.getByRole('button', { name: 'Add appointment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add appointment' });
  await dialog.getByLabel('Doctor').fill(doctor);
  await fillDateTime(dateTimeField(dialog, 'Date and time'), localInput(at));
  await dialog.getByLabel('Notes (optional)').fill(notes);
  await dialog.getByRole('button', { name: 'Add appointment' }).click();
  await dialog.waitFor({ state: 'detached', timeout: T });
  await card.getByText(notes, { exact: true }).waitFor({ timeout: T });
}

export async function editAppointment(page: Page, doctor: string, notes: string): Promise<void> {
  await ensure(page, 'Dashboard');
  const card = page.getByTestId('appointments');
  await card.getByRole('button', { name: new RegExp(`^Edit appointment with ${doctor} on`) }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit appointment' });
  await dialog.getByLabel('Notes (optional)').fill(notes);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.waitFor({ state: 'detached', timeout: T });
  await card.getByText(notes, { exact: true }).waitFor({ timeout: T });
}

export async function deleteAppointment(page: Page, doctor: string): Promise<void> {
  await ensure(page, 'Dashboard');
  const card = page.getByTestId('appointments');
  await card.getByRole('button', { name: new RegExp(`^Delete appointment with ${doctor} on`) }).click();
  await page.getByRole('dialog', { name: 'Delete this appointment?' }).getByRole('button', { name: 'Delete' }).click();
  await card.getByRole('button', { name: new RegExp(`^Delete appointment with ${doctor} on`) }).waitFor({ state: 'detached', timeout: T });
}

/** The appointments the card shows: doctor → notes. */
export async function appointmentsShown(page: Page): Promise<Map<string, string[]>> {
  await ensure(page, 'Dashboard');
  const card = page.getByTestId('appointments');
  await card.getByText(/Loading your appointments/).waitFor({ state: 'detached', timeout: T });
  const rows = await card
    .locator('li .list-main')
    .evaluateAll((els) => els.map((el) => ({ doctor: el.querySelector('strong')?.textContent ?? '', notes: el.querySelector('.muted')?.textContent ?? '' })));
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.doctor, [...(out.get(r.doctor) ?? []), r.notes]);
  return out;
}

// ---- doses (dashboard) ----

/**
 * Taps "Mark as taken" on the medicine; true when a dose was recorded, false when one already was
 * for the meal nearest to now. A second dose the same day is recorded when it is for another meal
 * (the meal times changed, or the day went on): the row then lists one more time. Seed 410015380
 * at 1:57 AM: the first dose went to dinner, breakfast then moved to 05:20, and the second tap
 * recorded breakfast's dose, while this waited for the "already recorded" notice.
 */
export async function markTaken(page: Page, medicine: string): Promise<boolean> {
  await ensure(page, 'Dashboard');
  // The first row of that name: a device that lists a medicine twice is reported by the final check.
  const row = page.getByTestId('medicines').getByRole('listitem').filter({ hasText: medicine }).first();
  const dosesListed = async () => {
    const text = (await row.locator('.list-main .muted').first().textContent()) ?? '';
    return /Taken today at (.+)$/.exec(text)?.[1]?.split(', ').length ?? 0;
  };
  const before = await dosesListed();
  await row.getByRole('button', { name: 'Mark as taken' }).click();
  const deadline = Date.now() + T;
  for (;;) {
    if (await row.getByTestId('already-taken').isVisible()) {
      await row
        .getByTestId('already-taken')
        .getByRole('button', { name: 'Keep it' })
        .click()
        .catch(() => undefined);
      return false;
    }
    if ((await dosesListed()) > before) return true;
    if (Date.now() > deadline) throw new Error(`marking ${medicine} taken showed neither a new dose nor the "already recorded" notice within ${T} ms`);
    await page.waitForTimeout(100);
  }
}

export async function medicinesShown(page: Page): Promise<string[]> {
  await ensure(page, 'Dashboard');
  const rows = page.getByTestId('medicines').getByRole('listitem');
  return rows.allTextContents();
}

/** The active medicines the card lists (not the reminders waiting above them), each row's text, once loaded. */
export async function activeMedicinesShown(page: Page): Promise<string[]> {
  await ensure(page, 'Dashboard');
  const card = page.getByTestId('medicines');
  await card.getByText('Loading your medicines…').waitFor({ state: 'detached', timeout: T });
  return card.locator(':scope > ul.list > li').allTextContents();
}

// ---- symptoms ----

export async function addSymptom(page: Page, name: string): Promise<void> {
  await ensure(page, 'Symptoms');
  await page.getByRole('combobox', { name: 'Symptom' }).fill(name);
  await page.getByRole('button', { name: 'Report symptom' }).click();
  await page.getByRole('region', { name: 'Today' }).getByText(name, { exact: true }).waitFor({ timeout: T });
}

export async function removeSymptom(page: Page, name: string): Promise<void> {
  await ensure(page, 'Symptoms');
  await page
    .getByRole('button', { name: new RegExp(`^Remove ${name} at `) })
    .first()
    .click();
  await page.getByRole('dialog', { name: 'Remove this report?' }).getByRole('button', { name: 'Remove', exact: true }).click();
  await page.getByRole('button', { name: new RegExp(`^Remove ${name} at `) }).waitFor({ state: 'detached', timeout: T });
}

/** How many reports of each of `names` the symptoms screen shows (all days). */
export async function symptomsShown(page: Page, names: string[]): Promise<Map<string, number>> {
  await ensure(page, 'Symptoms');
  // Count once the history has rendered (a report or the empty state), never while it says
  // "Loading your reports…": counted then, the first names came out 0 (seed 87846878).
  await page
    .getByRole('button', { name: /^Remove .+ at / })
    .or(page.getByText(/^No symptoms reported yet\./))
    .first()
    .waitFor({ timeout: T });
  const out = new Map<string, number>();
  for (const n of names) out.set(n, await page.getByRole('button', { name: new RegExp(`^Remove ${n} at `) }).count());
  return out;
}

// ---- lab tests ----

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

export async function addLab(page: Page, name: string, value: number): Promise<void> {
  await ensure(page, 'Lab tests');
  await field(page, 'Test').selectOption({ label: 'Another test…' });
  await field(page, 'Name of the test').fill(name);
  await field(page, 'Result').fill(String(value));
  await field(page, 'Unit').fill('mg/L');
  await page.getByRole('button', { name: 'Add result' }).click();
  await page.getByRole('article', { name, exact: true }).getByRole('listitem').getByText(`${value} mg/L`, { exact: true }).waitFor({ timeout: T });
}

export async function editLab(page: Page, name: string, value: number): Promise<void> {
  await ensure(page, 'Lab tests');
  const card = page.getByRole('article', { name, exact: true });
  await card
    .getByRole('button', { name: new RegExp(`^Change ${name} result of `) })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: `Change result: ${name}` });
  await dialog.getByLabel('Result', { exact: true }).fill(String(value));
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await dialog.waitFor({ state: 'detached', timeout: T });
  await card.getByRole('listitem').getByText(`${value} mg/L`, { exact: true }).waitFor({ timeout: T });
}

export async function deleteLab(page: Page, name: string): Promise<void> {
  await ensure(page, 'Lab tests');
  const card = page.getByRole('article', { name, exact: true });
  await card
    .getByRole('button', { name: new RegExp(`^Delete ${name} result of `) })
    .first()
    .click();
  await page.getByRole('dialog', { name: 'Delete this result?' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await card.waitFor({ state: 'detached', timeout: T });
}

/** The results each of the named tests' cards shows, e.g. ["4.5 mg/L"]. */
export async function labsShown(page: Page, names: string[]): Promise<Map<string, string[]>> {
  await ensure(page, 'Lab tests');
  // Read the cards once the history has rendered (a card or the empty state), never before.
  await page.getByRole('article').or(page.getByText('No lab results yet.')).first().waitFor({ timeout: T });
  const out = new Map<string, string[]>();
  for (const n of names) {
    const card = page.getByRole('article', { name: n, exact: true });
    if ((await card.count()) === 0) {
      out.set(n, []);
      continue;
    }
    const items = await card.getByRole('listitem').allTextContents();
    out.set(
      n,
      items.map((t) => /(\d+(?:\.\d+)?) mg\/L/.exec(t)?.[0] ?? t),
    );
  }
  return out;
}

// ---- profile ----

export async function setBreakfast(page: Page, time: string): Promise<void> {
  await ensure(page, 'Profile');
  await fillDateTime(dateTimeField(page, 'Breakfast'), time);
  // The confirmation of this save, not one still shown for an earlier save: a run that took the
  // earlier one (seed 775275645) navigated away 0.3 s after Save, before the device had stored the
  // time, and counted a write the app never confirmed.
  // A notice raised again while shown is the same element with a count (toast-store.ts), so what
  // is new is an element, or a text, not seen before the click.
  // Online the spec's words; offline, that the change is kept on the device (src/lib/ui/saved-notice.ts).
  const SAVED = ['Notification timings saved successfully', 'Saved on this device. It will be sent when you are back online.'];
  await page.evaluate(() => document.querySelectorAll('[role="status"]').forEach((el) => el.setAttribute('data-chaos-seen', el.textContent ?? '')));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForFunction(
    (texts) =>
      [...document.querySelectorAll('[role="status"]')].some(
        (el) => texts.some((text) => (el.textContent ?? '').includes(text)) && el.getAttribute('data-chaos-seen') !== el.textContent,
      ),
    SAVED,
    { timeout: T },
  );
}

export async function breakfastShown(page: Page): Promise<string> {
  await ensure(page, 'Profile');
  return dateTimeValue(dateTimeField(page, 'Breakfast'));
}

// ---- the outbox, the refused list, logout ----

/**
 * Rows in the device's outbox stores (sealed: counted, never read). The app may reload the page
 * meanwhile: a new version of the app takes over every device that loads it, and reloads it once
 * (src/lib/pwa.ts); the count is then taken again on the new page (seed 410015380: device B,
 * loaded at the settle, picked up the version device A had installed, and reloaded).
 */
export async function outboxCounts(page: Page): Promise<OutboxCounts> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await countOutbox(page);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof Error) || !/Execution context was destroyed|navigat/i.test(err.message)) throw err;
      await page.waitForLoadState('load');
    }
  }
}

/** What the device's outbox holds: to send, refused and undecided, decisions not yet applied, set aside for another patient. */
export interface OutboxCounts {
  entries: number;
  refused: number;
  overrides: number;
  parked: number;
}

function countOutbox(page: Page): Promise<OutboxCounts> {
  return page.evaluate(
    () =>
      new Promise<OutboxCounts>((resolve, reject) => {
        const req = indexedDB.open('eddy-outbox');
        req.onerror = () => reject(req.error ?? new Error('no outbox'));
        req.onsuccess = () => {
          const db = req.result;
          const names = ['entries', 'refused', 'overrides', 'parked'].filter((n) => db.objectStoreNames.contains(n));
          const out = { entries: 0, refused: 0, overrides: 0, parked: 0 } as Record<string, number>;
          if (names.length === 0) return resolve({ entries: 0, refused: 0, overrides: 0, parked: 0 });
          const tx = db.transaction(names, 'readonly');
          for (const n of names) {
            const c = tx.objectStore(n).count();
            c.onsuccess = () => (out[n] = c.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(out as unknown as OutboxCounts);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

export interface ShownRefusal {
  text: string;
  buttons: string[];
}

/**
 * The refused entries the review dialog lists, [] when the notice is not shown, or 'gone' when it
 * went away while Review was being tapped (seed 1838412833 once: the click waited 30 s on a notice
 * that was being taken down, and the run crashed before its checks).
 */
export async function openRefusals(page: Page): Promise<ShownRefusal[] | 'gone'> {
  const notice = page.getByTestId('refused-notice');
  if ((await notice.count()) === 0) return [];
  const review = notice.getByRole('button', { name: 'Review' });
  if ((await review.count()) === 0) return [];
  const dialog = page.getByRole('dialog', { name: 'Entries not accepted' });
  if ((await dialog.count()) === 0) {
    try {
      await review.click({ timeout: T });
    } catch (err) {
      if ((await notice.count()) === 0) return 'gone';
      throw err;
    }
  }
  await dialog.getByTestId('refused-item').first().waitFor({ timeout: T });
  const items = dialog.getByTestId('refused-item');
  const out: ShownRefusal[] = [];
  for (let i = 0; i < (await items.count()); i++) {
    const item = items.nth(i);
    out.push({ text: (await item.textContent()) ?? '', buttons: await item.getByRole('button').allTextContents() });
  }
  return out;
}

/** Clicks `button` on the first refused item whose text contains `match`. */
export async function decideRefusal(page: Page, match: string, button: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Entries not accepted' });
  const items = dialog.getByTestId('refused-item').filter({ hasText: match });
  // Several items may read alike (the demo data's symptoms sent again after a heal): the decided one
  // is gone when one fewer is listed, not when the first that matches is.
  const before = await items.count();
  await items.first().getByRole('button', { name: button, exact: true }).click();
  const deadline = Date.now() + T;
  while ((await items.count()) >= before) {
    if (Date.now() > deadline) throw new Error(`Timeout: the refused entry "${match.slice(0, 80)}" was still listed ${T / 1000} s after "${button}"`);
    await page.waitForTimeout(100);
  }
}

export async function closeRefusals(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Entries not accepted' });
  if ((await dialog.count()) > 0)
    await dialog
      .getByRole('button', { name: 'Close' })
      .click()
      .catch(() => undefined);
}

/**
 * Log out from the header with entries unsent: the app must try to send them, then say how many
 * would be lost and ask. Returns the number it states; the caller cancels.
 */
export async function logoutAsksFirst(page: Page): Promise<number | undefined> {
  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  const ask = page.getByRole('dialog', { name: 'Log out and delete unsent entries?' });
  const asked = await Promise.race([
    ask.waitFor({ timeout: 30_000 }).then(() => true),
    page
      .getByLabel('Hospital number')
      .waitFor({ timeout: 30_000 })
      .then(() => false),
  ]);
  if (!asked) return undefined;
  const text = (await ask.getByTestId('unsent-warning').textContent()) ?? '';
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await ask.waitFor({ state: 'detached', timeout: T });
  const m = /(\d+) entr(y|ies)/.exec(text);
  return m ? Number(m[1]) : -1;
}
