// Advice after a dangerous reading, graded by severity and set by the patient's hospital (its urgent
// level and care contact, from the staff area's settings), never under a green "reported
// successfully"; and a save made offline says where the entry is instead of "successfully".
import { expect, test } from '../fixtures/index.ts';
import type { Page } from '@playwright/test';
import { DEMO_ADMIN, loginPatient, screenshot, seriousA11yViolations, todayShows, type EddyServer } from '../fixtures/index.ts';

const OFFLINE_NOTICE = 'Saved on this device. It will be sent when you are back online.';
const CONTACT = 'Diabetes nurse, 0800 123 456 (8 am to 8 pm)';

/** Sets the settings of the demo patient's hospital through the admin API, as the Manage page does. */
async function setHospitalSettings(server: EddyServer, settings: Record<string, unknown>): Promise<void> {
  const login = await fetch(`${server.url}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ADMIN.email, password: DEMO_ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  const list = (await (await fetch(`${server.url}/api/admin/hospitals`, { headers })).json()) as { hospitals: { _id: string; name: string }[] };
  const city = list.hospitals.find((h) => h.name === 'City General Hospital');
  if (!city) throw new Error('no City General Hospital');
  const res = await fetch(`${server.url}/api/admin/hospitals/${city._id}`, { method: 'PATCH', headers, body: JSON.stringify(settings) });
  expect(res.status).toBe(200);
}

async function save(page: Page, value: number): Promise<void> {
  await page.getByRole('radio', { name: 'Random' }).check();
  await page.getByLabel('Glucose (mg/dL)').fill(String(value));
  await page.getByRole('button', { name: 'Save reading' }).click();
}

const successNotices = (page: Page) => page.locator('.toast--success');

test('a reading at the hospital’s urgent level gets the urgent advice with its contact, and no green notice under it', async ({ page, network, server }) => {
  test.setTimeout(120_000);
  await setHospitalSettings(server, { urgentHighMgDl: 400, careContact: CONTACT });
  await loginPatient(page, network.url);
  const before = new Set((await server.api.readings()).map((r) => r._id));

  // A normal reading first: its green notice is on screen when the dangerous one is saved.
  await save(page, 120);
  await page.getByText('Glucose reported successfully').first().waitFor({ timeout: 15_000 });
  await save(page, 420);
  const dialog = page.getByRole('alertdialog', { name: 'Your glucose is dangerously high' });
  await dialog
    .getByText(
      /^420 mg\/dL is at or above 400 mg\/dL\. Check your ketones now if you can, and contact your care team now; in hospital, tell the ward staff now\./,
    )
    .waitFor({ timeout: 15_000 });
  await dialog
    .getByText(/^Get emergency help if you cannot reach them quickly, if your ketones are moderate or large in urine \(or 1\.5 mmol\/L or more in blood\)/)
    .waitFor();
  await dialog.getByText(`Contact your care team: ${CONTACT}`).waitFor();
  await dialog.getByText('Your reading is saved.').waitFor();
  await expect(dialog.getByRole('button', { name: 'I understand' })).toBeFocused();
  // The earlier green notice is gone, and none comes while the advice is open.
  await expect(successNotices(page)).toHaveCount(0);
  await expect(page.getByText('Glucose reported successfully')).toHaveCount(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, 'advice-urgent-high-360');
  await dialog.getByRole('button', { name: 'I understand' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await expect.poll(async () => (await server.api.readings()).filter((r) => r.value === 420 && !before.has(r._id)).length, { timeout: 30_000 }).toBe(1);
});

test('a level-1 low says to take another 15 g if still low, then eat, and when to get help', async ({ patient }) => {
  test.setTimeout(90_000);
  const { page } = patient;
  await save(page, 60);
  const dialog = page.getByRole('alertdialog', { name: 'Your glucose is low' });
  await dialog.getByText(/^60 mg\/dL is below 70 mg\/dL\. Take 15 g of fast-acting sugar now/).waitFor({ timeout: 15_000 });
  await dialog
    .getByText(
      /Check again after 15 minutes\. If it is still below 70 mg\/dL, take another 15 g and check again after 15 minutes\. When it is back to 70 mg\/dL or above, eat a snack or your next meal\.$/,
    )
    .waitFor();
  await dialog.getByText(/^Get help if it is still below 70 mg\/dL after two or three treatments, or if you feel worse at any time/).waitFor();
  // The demo hospital has set no contact.
  await expect(dialog.getByText(/^Contact your care team:/)).toHaveCount(0);
  await expect(successNotices(page)).toHaveCount(0);
  await dialog.getByRole('button', { name: 'I understand' }).click();
  await dialog.waitFor({ state: 'hidden' });
});

test('a reading saved offline is said to be kept on the device, is kept, and is sent once back online', async ({ patient, network, server }) => {
  test.setTimeout(120_000);
  const { page } = patient;
  const before = new Set((await server.api.readings()).map((r) => r._id));
  await network.offline();
  await page
    .getByTestId('sync-badge')
    .getByText(/Offline/)
    .waitFor();

  await save(page, 166);
  const notice = page.getByRole('status').filter({ hasText: OFFLINE_NOTICE });
  await notice.waitFor({ timeout: 15_000 });
  await expect(successNotices(page)).toHaveCount(0);
  await expect(page.getByText('Glucose reported successfully')).toHaveCount(0);
  await screenshot(page, 'saved-offline-360');

  // A dangerous reading offline: the advice says where the reading is too.
  await save(page, 45);
  const dialog = page.getByRole('alertdialog', { name: 'Your glucose is very low' });
  await dialog.getByText('Your reading is saved on this device. It will be sent when you are back online.').waitFor({ timeout: 15_000 });
  await dialog.getByRole('button', { name: 'I understand' }).click();
  await dialog.waitFor({ state: 'hidden' });

  await page.reload();
  await todayShows(page, 'Random', 166).waitFor({ timeout: 30_000 });
  await todayShows(page, 'Random', 45).waitFor();
  const onServer = async (value: number) => (await server.api.readings()).filter((r) => r.value === value && !before.has(r._id)).length;
  expect(await onServer(166)).toBe(0);

  await network.online();
  await expect.poll(() => onServer(166), { timeout: 45_000 }).toBe(1);
  await expect.poll(() => onServer(45), { timeout: 45_000 }).toBe(1);
});

test('an admin sets the hospital’s urgent level and care contact in Manage, with the rules said in words', async ({ staff, network, server }) => {
  test.setTimeout(90_000);
  const { page } = staff;
  await page.goto(`${network.url}/admin/manage`);
  const card = page.getByRole('region', { name: 'Hospital settings' });
  await card.getByLabel('Hospital', { exact: true }).selectOption({ label: 'City General Hospital' });
  const level = card.getByLabel('Urgent high level (mg/dL)');
  await expect(level).toHaveValue('400');
  await card.getByText('400 mg/dL is 22.2 mmol/L.').waitFor();
  await level.fill('299');
  await card.getByRole('button', { name: 'Save settings' }).click();
  await card.getByText('The urgent level must be from 300 to 500 mg/dL (16.7 to 27.8 mmol/L).').waitFor();
  await card.getByLabel('Identifier system of hospital numbers').fill('MRN');
  await card.getByRole('button', { name: 'Save settings' }).click();
  await card.getByText('Enter a URI: urn:oid: followed by an OID', { exact: false }).waitFor();
  expect(await seriousA11yViolations(page)).toEqual([]);

  await level.fill('350');
  await card.getByText('350 mg/dL is 19.4 mmol/L.').waitFor();
  await card.getByLabel('Care team contact').fill(CONTACT);
  await card.getByLabel('Identifier system of hospital numbers').fill('urn:oid:2.16.840.1.113883.2.1.4.1');
  await card.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('The settings of City General Hospital were saved.').waitFor();
  await screenshot(page, 'manage-hospital-settings-1280');
  await expect
    .poll(async () => (await server.api.profile())['hospitalSettings'])
    .toEqual({ identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1', urgentHighMgDl: 350, careContact: CONTACT });
  // Emptied, the identifier system goes back to the hospital's own id.
  await card.getByLabel('Identifier system of hospital numbers').fill('');
  await card.getByRole('button', { name: 'Save settings' }).click();
  await expect
    .poll(async () => ((await server.api.profile())['hospitalSettings'] as { identifierSystem: string }).identifierSystem)
    .toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
});
