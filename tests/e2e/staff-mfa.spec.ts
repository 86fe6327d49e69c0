// Issue 48, item 2: a second factor for staff, in Chromium. An admin sets up an authenticator app
// from the login page (its QR code and key, then its first code), keeps the recovery codes shown
// once, and signs in afterwards with the app's code or a recovery code. A hospital that asks for two
// steps makes its other admins set the app up at their next login. The app's codes are computed
// here from the key the page shows, as an authenticator app computes them (RFC 6238).
import * as OTPAuth from 'otpauth';
import { expect, test } from '../fixtures/index.ts';
import type { Browser, Page } from '@playwright/test';
import { launchChromium, screenshot, seriousA11yViolations, startServer, type EddyServer } from '../fixtures/index.ts';

const DEMO_ADMIN = { email: 'admin@demo.hospital', password: 'Demo-admin-1' };
const WARD_ADMIN = { email: 'ward.admin@demo.hospital', password: 'Ward-admin-pass-7' };

let server: EddyServer;
let browser: Browser;
let recoveryCodes: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  browser = await launchChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
});

/** The code an authenticator app with `key` shows `offsetS` seconds from now. */
const codeOf = (key: string, offsetS = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp: Date.now() + offsetS * 1000 });

/** A fresh device (no staff session) at the staff login, `width` px wide, in `lang` ('' for English). */
async function loginPage(width = 1280, lang = ''): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}${lang ? `/${lang}` : ''}/admin`);
  return page;
}

async function password(page: Page, who: { email: string; password: string }) {
  await page.locator('input[name="email"]').fill(who.email);
  await page.locator('input[name="password"]').fill(who.password);
}

/** A login with the password and a recovery code in place of the app's code. */
async function withRecoveryCode(page: Page, who: { email: string; password: string }, code: string) {
  await password(page, who);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(code);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Reads the key of the setup step and confirms it with the app's code: the recovery codes shown. */
async function confirmSetup(page: Page): Promise<string[]> {
  const key = (await page.getByTestId('authenticator-key').innerText()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{32}$/);
  await page.locator('input[name="code"]').fill(codeOf(key));
  await page.locator('form[name="admin-login"] button[type="submit"]').click();
  const list = page.getByTestId('recovery-codes');
  await list.waitFor();
  return (await list.locator('li').allInnerTexts()).map((c) => c.trim());
}

test.describe('two-step sign-in for staff', () => {
  test('an admin sets up an authenticator app, then signs in with its code or a recovery code', async () => {
    test.setTimeout(120_000);
    const page = await loginPage();
    await password(page, DEMO_ADMIN);
    await page.getByRole('button', { name: 'Set up two-step sign-in with an authenticator app' }).click();
    await page.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    const qr = page.getByRole('img', { name: 'QR code that adds Eddy to your authenticator app' });
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'staff-mfa-setup-1280');

    // A wrong code is refused at the field, and nothing is set up.
    await page.getByLabel('Code from your authenticator app').fill('12345');
    await page.getByRole('button', { name: 'Confirm and log in' }).click();
    await expect(page.getByText('Enter the 6 digits your authenticator app shows.')).toBeVisible();
    const key = (await page.getByTestId('authenticator-key').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Code from your authenticator app').fill(codeOf(key, 600));
    await page.getByRole('button', { name: 'Confirm and log in' }).click();
    await expect(page.getByText('That code is not right, or was used already. Enter the code your authenticator app shows now.')).toBeVisible();

    recoveryCodes = await confirmSetup(page);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'staff-mfa-recovery-codes-1280');
    await page.getByRole('button', { name: 'I have kept them: continue' }).click();
    await page.waitForURL(/\/admin\/hospital-select/);
    await page.context().close();

    // The password alone no longer signs in: the app's next code does.
    const again = await loginPage(360);
    await password(again, DEMO_ADMIN);
    await again.getByRole('button', { name: 'Log in', exact: true }).click();
    await again.getByRole('heading', { name: 'Second step' }).waitFor();
    await expect(again.getByText(`Logging in as ${DEMO_ADMIN.email}.`)).toBeVisible();
    expect(await seriousA11yViolations(again)).toEqual([]);
    await screenshot(again, 'staff-mfa-code-360');
    await again.getByLabel('Code from your authenticator app').fill(codeOf(key, 30));
    await again.getByRole('button', { name: 'Log in', exact: true }).click();
    await again.waitForURL(/\/admin\/hospital-select/);
    await again.context().close();

    // A recovery code, once; the page says how many are left.
    const recovery = await loginPage();
    await withRecoveryCode(recovery, DEMO_ADMIN, recoveryCodes[0] ?? '');
    await recovery.waitForURL(/\/admin\/hospital-select/);
    await expect(recovery.getByText('You signed in with a recovery code. 9 recovery codes are left.')).toBeVisible();
    await recovery.context().close();

    const reused = await loginPage();
    await withRecoveryCode(reused, DEMO_ADMIN, recoveryCodes[0] ?? '');
    await expect(reused.getByText('That recovery code is not right, or was used already.')).toBeVisible();
    expect(reused.url()).not.toMatch(/hospital-select/);
    await reused.context().close();
  });

  test('a hospital that asks for two steps: its other admins set the app up at their next login', async () => {
    test.setTimeout(180_000);
    await server.adminCli([
      'create-admin',
      '--email',
      WARD_ADMIN.email,
      '--name',
      'Ward Admin',
      '--hospital',
      'City General Hospital',
      '--password',
      WARD_ADMIN.password,
    ]);

    // The ward admin has a session from before the hospital asks.
    const ward = await loginPage();
    await password(ward, WARD_ADMIN);
    await ward.getByRole('button', { name: 'Log in', exact: true }).click();
    await ward.waitForURL(/\/admin\/hospital-select/);

    const page = await loginPage();
    await withRecoveryCode(page, DEMO_ADMIN, recoveryCodes[1] ?? '');
    await page.waitForURL(/\/admin\/hospital-select/);
    await page.goto(`${server.url}/admin/manage`);
    const settings = page.getByRole('region', { name: 'Hospital settings' });
    await settings.getByLabel('Hospital', { exact: true }).selectOption({ label: 'City General Hospital' });
    await settings.getByLabel('Admins sign in with two steps').check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(
      page.getByText('Admins of City General Hospital set up two-step sign-in at their next login; their sessions without it have ended.'),
    ).toBeVisible();
    await page.reload();
    await settings.getByLabel('Hospital', { exact: true }).selectOption({ label: 'City General Hospital' });
    await expect(settings.getByLabel('Admins sign in with two steps')).toBeChecked();
    await page.context().close();

    // The ward admin's session without a second step has ended: the next call says so.
    await ward.goto(`${server.url}/admin/manage`);
    await expect(ward.getByText('Session Expired. Please login again.').first()).toBeVisible();
    await ward.context().close();

    // Their next login sets the app up before anything else, on a phone.
    const next = await loginPage(360);
    await password(next, WARD_ADMIN);
    await next.getByRole('button', { name: 'Log in', exact: true }).click();
    await next.getByRole('heading', { name: 'Set up two-step sign-in' }).waitFor();
    await expect(next.getByText('Your hospital asks staff to sign in with a second step', { exact: false })).toBeVisible();
    expect(await next.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(next, 'staff-mfa-required-360');
    const codes = await confirmSetup(next);
    expect(codes).toHaveLength(10);
    expect(await next.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(next, 'staff-mfa-recovery-codes-360');
    await next.getByRole('button', { name: 'I have kept them: continue' }).click();
    await next.waitForURL(/\/admin\/hospital-select/);
    await next.context().close();

    // In Arabic, right to left, the second step reads as a whole and fits a phone.
    const rtl = await loginPage(360, 'ar');
    await password(rtl, WARD_ADMIN);
    await rtl.locator('form[name="admin-login"] button[type="submit"]').click();
    await rtl.locator('input[name="code"]').waitFor();
    expect(await rtl.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await rtl.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(rtl, 'staff-mfa-code-ar-360');
    await rtl.context().close();
  });
});
