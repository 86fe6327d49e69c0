// Issue 48, item 1: staff sign in with the hospital's identity provider, in Chromium, against a real
// OpenID Connect provider (oidc-provider, OpenID Certified) that the test starts: the staff login's
// button, the provider's own sign-in page, and back to the staff area as admin or doctor. A person the
// provider gives no staff role is told why; the password login stays beside it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../fixtures/index.ts';
import { launchChromium, screenshot, seriousA11yViolations, startServer, type EddyServer } from '../fixtures/index.ts';
import { providerEntry, startTestIdentityProvider, type TestIdentityProvider } from '../../server/testing/oidc-provider.ts';

const PROVIDER_NAME = 'City General staff account';

let server: EddyServer;
let idp: TestIdentityProvider;
let browser: Browser;
let dir: string;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  // The provider's address goes in the server's configuration; the server's in the provider's.
  idp = await startTestIdentityProvider({
    accounts: {
      'ward.lead': {
        email: 'ward.lead@city-general.example',
        email_verified: true,
        name: 'Wren Lead',
        groups: ['eddy-admins'],
        hospitals: ['City General Hospital'],
      },
      'dr.ahmed': {
        email: 'dr.ahmed@city-general.example',
        name: 'Dr Samira Ahmed',
        groups: ['eddy-doctors'],
        hospitals: ['City General Hospital', 'Riverside Clinic'],
      },
      porter: { email: 'porter@city-general.example', name: 'Pat Porter', groups: ['estates'], hospitals: ['City General Hospital'] },
    },
  });
  dir = await mkdtemp(path.join(tmpdir(), 'eddy-e2e-oidc-'));
  const file = path.join(dir, 'providers.json');
  await writeFile(
    file,
    JSON.stringify({
      providers: [
        providerEntry(idp, {
          id: 'city-general',
          name: PROVIDER_NAME,
          hospitals: ['City General Hospital', 'Riverside Clinic'],
          secretEnv: 'CITY_GENERAL_OIDC_SECRET',
        }),
      ],
    }),
  );
  server = await startServer({ env: { OIDC_PROVIDERS: file, CITY_GENERAL_OIDC_SECRET: idp.clientSecret } });
  idp.allowRedirect(`${server.url}/api/admin/oidc/callback`);
  browser = await launchChromium();
});

test.afterAll(async () => {
  await browser?.close();
  await idp?.close();
  await server?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function staffLogin(width = 1280, lang = ''): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${server.url}${lang ? `/${lang}` : ''}/admin`);
  return page;
}

/** The button, the provider's own page (its development login form), and back. */
async function signInAtProvider(page: Page, login: string, button = `Sign in with ${PROVIDER_NAME}`) {
  await page.getByRole('link', { name: button }).click();
  await page.waitForURL((url) => url.origin === new URL(idp.issuer).origin);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('the hospital password');
  await page.locator('button[type="submit"]').click();
}

test.describe('staff sign-in with the hospital account', () => {
  test('an admin signs in at the provider and lands in the staff area; the address keeps no code', async () => {
    const page = await staffLogin();
    await page.getByRole('heading', { name: 'Hospital account' }).waitFor();
    // The password login stays beside it.
    await page.locator('input[name="email"]').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'staff-login-with-provider-1280');
    let redeemed = '';
    page.on('request', (r) => {
      if (r.url().endsWith('/api/admin/oidc/redeem')) redeemed = String((r.postDataJSON() as { code: string }).code);
    });
    // The notice shows for 4 s from the sign-in's answer: looked for from the start, not after the
    // next page has loaded (a loaded CI machine took longer than that to show it).
    await Promise.all([
      page.getByText('You have successfully logged in.').waitFor({ timeout: 45_000 }),
      signInAtProvider(page, 'ward.lead').then(() => page.waitForURL(/\/admin\/hospital-select$/)),
    ]);
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('radio', { name: /City General Hospital/ }).waitFor();
    // Only the hospital the provider's claim names.
    expect(await page.getByRole('radio', { name: /Riverside Clinic/ }).count()).toBe(0);
    // The used code signs nobody in again (an address kept in history, a copied link).
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/admin$/);
    await page.goto(`${server.url}/admin#oidc=${redeemed}`);
    await page.getByRole('alert').getByText('This sign-in has expired or was used already. Sign in again.').waitFor();
    await page.getByRole('heading', { name: 'Staff login' }).waitFor();
    await page.context().close();
  });

  test('a doctor signs in to both hospitals, and logging out ends the session on the server', async () => {
    const page = await staffLogin(360);
    // The session's token is sealed on the device: read from the staff calls' header.
    let token = '';
    page.on('request', (r) => {
      const auth = r.headers()['authorization'];
      if (auth && r.url().includes('/api/admin/')) token = auth.replace(/^Bearer /, '');
    });
    await Promise.all([
      page.getByText('You have successfully logged in as doctor.').waitFor({ timeout: 45_000 }),
      signInAtProvider(page, 'dr.ahmed').then(() => page.waitForURL(/\/admin\/hospital-select$/)),
    ]);
    await page.getByRole('radio', { name: /Riverside Clinic/ }).waitFor();
    await page.getByRole('radio', { name: /City General Hospital/ }).waitFor();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await fetch(`${server.url}/api/admin/users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/admin$/);
    await expect.poll(async () => (await fetch(`${server.url}/api/admin/users`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    await page.context().close();
  });

  test('a person the provider gives no staff role is told why and who can help, in their language', async () => {
    const page = await staffLogin(360);
    await signInAtProvider(page, 'porter');
    await page.waitForURL(/\/admin$/);
    await page
      .getByRole('alert')
      .getByText("Your hospital account is not given access to Eddy. Ask your IT service desk to add you to Eddy's staff group.")
      .waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.context().close();

    const arabic = await staffLogin(360, 'ar');
    await signInAtProvider(arabic, 'porter', `تسجيل الدخول باستخدام ${PROVIDER_NAME}`);
    await arabic.waitForURL(/\/admin$/);
    await arabic.getByRole('alert').getByText('لم يُمنح حساب المستشفى الخاص بك حق الوصول إلى Eddy.', { exact: false }).waitFor();
    expect(await arabic.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const page2 = arabic;
    expect(await seriousA11yViolations(page2)).toEqual([]);
    await screenshot(page2, 'staff-login-provider-refused-360-ar');
    await page2.context().close();
  });
});
