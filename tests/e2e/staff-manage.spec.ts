// The staff management screen (issue "The staff area"): an admin creates and edits a patient, hands
// out an access key and a temporary password that really log the patient in, manages prescriptions
// and doctor tokens (a revoked token stops working at once) and reads the audit log. A doctor gets
// the admins-only message and no forms.
import { expect, test } from '../fixtures/index.ts';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { launchChromium, screenshot, seriousA11yViolations, startServer, type EddyServer, until } from '../fixtures/index.ts';

const HOSP_NO = '100077';
let server: EddyServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminToken = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  page.on('response', async (res) => {
    if (res.url().endsWith('/api/admin/login') && res.ok()) adminToken = String(((await res.json()) as { token?: string }).token ?? '');
  });
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

async function api(method: 'GET' | 'POST', path: string, body?: unknown, token = adminToken): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function noSeriousViolations() {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

const region = (name: string) => page.getByRole('region', { name, exact: true });
const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();

test.describe('staff management', () => {
  test('lets an admin manage a patient, doctor tokens and read the audit log', async () => {
    test.setTimeout(120_000);
    await page.goto(`${server.url}/admin`);
    await page.getByLabel('Email').fill('admin@demo.hospital');
    await page.getByLabel('Password', { exact: true }).fill('Demo-admin-1');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/admin\/hospital-select/);
    await page.goto(`${server.url}/admin/manage`);
    await page.getByRole('heading', { name: 'Manage patients and doctors' }).waitFor();
    await noSeriousViolations();
    await screenshot(page, 'staff-manage-1280');

    // Checks before any call: required fields, age range; what was typed stays.
    const create = region('New patient');
    await create.getByLabel('Age').fill('200');
    await create.getByRole('button', { name: 'Create patient' }).click();
    await create.getByText('Enter the hospital number.').waitFor();
    await create.getByText("Enter the patient's name.").waitFor();
    await create.getByText('Age must be a whole number from 0 to 130.').waitFor();
    await create.getByText("Choose the patient's hospital.").waitFor();
    await noSeriousViolations();

    // The server's refusal is shown and nothing typed is lost.
    await create.getByLabel('Hospital number of the new patient').fill('100001');
    await create.getByLabel('Name').fill('Asha Patel');
    await create.getByLabel('Hospital', { exact: true }).selectOption({ label: 'City General Hospital' });
    await create.getByLabel('Gender').selectOption({ label: 'Female' });
    await create.getByLabel('Age').fill('47');
    await create.getByLabel('Address').fill('9 Hill Road');
    await create.getByRole('button', { name: 'Create patient' }).click();
    await create.getByText('A patient with hospital number 100001 already exists').waitFor();
    expect(await create.getByLabel('Name').inputValue()).toBe('Asha Patel');

    await create.getByLabel('Hospital number of the new patient').fill(HOSP_NO);
    await create.getByRole('button', { name: 'Create patient' }).click();
    await toast(`Patient ${HOSP_NO} created`);
    // The new patient opens for management straight away.
    const details = region('Patient details');
    expect(await details.getByLabel('Name').inputValue()).toBe('Asha Patel');
    expect(await page.getByLabel('Hospital number', { exact: true }).inputValue()).toBe(HOSP_NO);

    await details.getByLabel('Address').fill('22 Lake View');
    await details.getByRole('button', { name: 'Save patient details' }).click();
    await toast('Patient details saved');
    const stored = await api('GET', `/admin/patients/${HOSP_NO}`);
    expect(stored.json['patient']).toMatchObject({ name: 'Asha Patel', address: '22 Lake View', age: 47, gender: 'Female' });

    // Access key: shown once, and it logs the patient in.
    const secrets = region('Access key and password');
    await secrets.getByRole('button', { name: 'Issue access key' }).click();
    await toast('Access key issued');
    await secrets.getByText('it will not be shown again', { exact: false }).first().waitFor();
    const accessKey = (await secrets.getByTestId('one-time-secret').first().textContent()) ?? '';
    expect(accessKey.length).toBeGreaterThan(10);
    expect((await api('POST', '/auth/login', { hospNo: HOSP_NO, accessKey }, '')).status).toBe(200);

    await secrets.getByRole('button', { name: 'Set a temporary password' }).click();
    await toast('Temporary password set');
    const password = (await secrets.getByTestId('one-time-secret').nth(1).textContent()) ?? '';
    expect((await api('POST', '/auth/loginWithPassword', { hospNo: HOSP_NO, password }, '')).status).toBe(200);
    await noSeriousViolations();
    await screenshot(page, 'staff-manage-secrets-1280');

    // Prescriptions: the empty state, a required-field check, add, end after confirming.
    const prescriptions = region('Prescriptions');
    await prescriptions.getByText("No prescriptions yet. Add the patient's first medicine below.").waitFor();
    await prescriptions.getByRole('button', { name: 'Add prescription' }).click();
    await prescriptions.getByText('Enter the prescription number.').waitFor();
    await prescriptions.getByLabel('Prescription number').fill('RX-77');
    await prescriptions.getByLabel('Medicine name').fill('Metformin');
    await prescriptions.getByLabel('Dose').fill('500 mg');
    await prescriptions.getByRole('button', { name: 'Add prescription' }).click();
    await toast('Prescription added');
    await prescriptions.getByRole('button', { name: 'End Metformin' }).click();
    const dialog = page.getByRole('dialog', { name: 'End Metformin?' });
    await dialog.waitFor();
    await noSeriousViolations();
    await dialog.getByRole('button', { name: 'End prescription' }).click();
    await toast('Prescription ended');
    const rx = await api('GET', `/admin/patients/${HOSP_NO}/prescriptions`);
    const list = rx.json['prescriptions'] as { prescrNo: string; endDate: string | null }[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ prescrNo: 'RX-77' });
    expect(list[0]?.endDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // Doctor token: shown once with its ready link; it verifies until it is revoked.
    const tokens = region('Doctor tokens');
    await tokens.getByLabel("Doctor's name").fill('Dr Grey');
    await tokens.getByRole('button', { name: 'Create doctor token' }).click();
    await toast('Doctor token created');
    const doctorToken = (await tokens.getByTestId('one-time-secret').textContent()) ?? '';
    await tokens.getByText(`${server.url}/admin?doctorToken=${doctorToken}`, { exact: true }).waitFor();
    expect((await api('POST', '/admin/verifyToken', undefined, doctorToken)).status).toBe(200);
    await screenshot(page, 'staff-manage-token-1280');
    await tokens.getByRole('button', { name: 'Revoke the token of Dr Grey' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke the token of Dr Grey?' });
    await revoke.waitFor();
    await noSeriousViolations();
    await revoke.getByRole('button', { name: 'Revoke', exact: true }).click();
    await toast('Doctor token revoked');
    expect((await api('POST', '/admin/verifyToken', undefined, doctorToken)).status).toBe(401);

    // The audit log shows who looked at the new patient.
    const audit = region('Audit log');
    await audit.getByLabel('Filter by hospital number').fill(HOSP_NO);
    await audit.getByRole('button', { name: 'Show entries' }).click();
    await audit.getByRole('cell', { name: 'GET /api/admin/patients/:hospNo', exact: true }).first().waitFor();
    expect(await audit.getByRole('row').count()).toBeGreaterThan(2);
    const cells = await audit.getByRole('row').nth(1).getByRole('cell').allTextContents();
    expect(cells[2]).toBe(HOSP_NO);
    expect(cells[1]).toContain('(admin)');
    await noSeriousViolations();
    await screenshot(page, 'staff-manage-full-1280');

    // More than one page (50) of views: "Load older" fetches the next page, with nothing twice.
    for (let i = 0; i < 50; i++) expect((await api('GET', `/admin/patients/${HOSP_NO}`)).status).toBe(200);
    await audit.getByRole('button', { name: 'Show entries' }).click();
    await until('a full first page', async () => ((await audit.getByRole('row').count()) === 51 ? true : undefined), 10_000);
    await audit.getByRole('button', { name: 'Load older' }).click();
    const total = await until(
      'the older page',
      async () => {
        const n = await audit.getByRole('row').count();
        return n > 51 ? n : undefined;
      },
      10_000,
    );
    const firstPage = (await api('GET', `/admin/audit?hospNo=${HOSP_NO}&limit=500`)).json['entries'] as unknown[];
    expect(total - 1).toBe(firstPage.length);

    await page.setViewportSize({ width: 768, height: 1024 });
    await noSeriousViolations();
    await screenshot(page, 'staff-manage-768');
    await page.evaluate(() => (document.documentElement.dir = 'rtl'));
    await screenshot(page, 'staff-manage-768-rtl');
    await page.evaluate(() => (document.documentElement.dir = 'ltr'));
  });

  test('shows a doctor the admins-only message and no forms', async () => {
    test.setTimeout(60_000);
    const created = await api('POST', '/admin/doctor-tokens', {
      doctorName: 'Dr House',
      hospitalIds: ((await api('GET', '/admin/hospitals')).json['hospitals'] as { _id: string }[]).map((h) => h._id),
      expiresAt: new Date(Date.now() + 3 * 24 * 3600_000).toISOString(),
    });
    expect(created.status).toBe(201);
    const doctor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const p = await doctor.newPage();
    await p.goto(`${server.url}/admin?doctorToken=${encodeURIComponent(String(created.json['token']))}`);
    await p.waitForURL(/\/admin\/hospital-select/);
    await p.goto(`${server.url}/admin/manage`);
    await p.getByText('Only admins can manage patients and doctor tokens.').waitFor();
    expect(await p.getByRole('textbox').count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Create patient' }).count()).toBe(0);
    expect(await seriousA11yViolations(p)).toEqual([]);
    await screenshot(p, 'staff-manage-doctor-1280');
    await doctor.close();
  });
});
