// The PDF engine and its fonts are not precached (issue 15, "precache diet"): the service worker
// fetches them after login, the script fonts only for the language in use (sw/later.ts). A device
// that was online once after logging in makes the PDF offline, in Arabic too; one that never got
// them says so clearly instead of a generic failure, and fetches them when it is back online.
import { expect, test } from '../fixtures/index.ts';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { FaultProxy, laterFiles, LATER_CACHE, launchChromium, startServer, uiLogin, waitForLaterFiles, type EddyServer } from '../fixtures/index.ts';

let server: EddyServer;
// "offline" cuts every request of the device, the service worker's included (context.setOffline does not).
let proxy: FaultProxy;
let browser: Browser;
let work: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  proxy = await FaultProxy.start(server.url);
  browser = await launchChromium();
  work = await mkdtemp(path.join(tmpdir(), 'eddy-pdf-offline-'));
});

test.afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.cleanup();
  if (work) await rm(work, { recursive: true, force: true });
});

async function download(page: Page, button: string, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: button }).first().click()]);
  const saved = path.join(work, name);
  await file.saveAs(saved);
  return saved;
}

test.describe('the PDF engine and fonts, fetched after login', () => {
  test('a fresh login in Arabic gets the engine and the Arabic fonts only; offline the Arabic PDF is made', async () => {
    test.setTimeout(150_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, locale: 'ar-EG' });
    proxy.follow(context);
    const page = await context.newPage();
    try {
      await page.goto(`${proxy.url}/`);
      // Before login nothing of it is fetched: the first visit downloads only the precache.
      await page.getByLabel('رقم الملف الطبي').fill('100001');
      expect(await laterFiles(page)).toEqual([]);
      await page.getByLabel('كلمة المرور', { exact: true }).fill('Demo-patient-1');
      await page.getByRole('button', { name: 'تسجيل الدخول', exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/ar/app', { timeout: 30_000 });
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
      const files = await waitForLaterFiles(page, ['NotoSansArabic']);
      expect(files.filter((f) => f.includes('NotoSansDevanagari'))).toEqual([]);

      await proxy.offline();
      await page.goto(`${proxy.url}/ar/app/reports`);
      await page.getByTestId('report-period').waitFor({ timeout: 30_000 });
      const file = await download(page, 'تنزيل PDF', 'offline-ar.pdf');
      expect(execFileSync('pdffonts', [file], { encoding: 'utf8' })).toContain('NotoSansArabic');
    } finally {
      await proxy.online();
      proxy.unfollow(context);
      await context.close();
    }
  });

  /**
   * Logs the demo patient in, lets the fetch after login finish, then takes away what it fetched
   * (the worker's cache and the browser's) with the connection cut: a device that never got it.
   */
  async function loginThenLoseLaterFiles(context: BrowserContext, page: Page): Promise<void> {
    await uiLogin(page, proxy.url, '100001', 'Demo-patient-1');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await waitForLaterFiles(page);
    await proxy.offline();
    await page.evaluate((name) => caches.delete(name), LATER_CACHE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await cdp.detach();
  }

  test('offline without them, the report page says the PDF maker is not on the device; online again, it is fetched', async () => {
    test.setTimeout(150_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    proxy.follow(context);
    const page = await context.newPage();
    try {
      await loginThenLoseLaterFiles(context, page);
      expect(await laterFiles(page)).toEqual([]);

      await page.goto(`${proxy.url}/app/reports`);
      await page.getByTestId('report-period').waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Download PDF' }).first().click();
      // Failed once on a slow CI machine with no such alert and nothing else to go on: a failure now
      // says what the page showed instead (another notice, or the loader still turning).
      await expect(page.getByRole('alert').filter({ hasText: 'The PDF maker is not on this device yet. Connect once to the internet, then try again.' }))
        .toBeVisible({ timeout: 30_000 })
        .catch(async (err: unknown) => {
          const shown = await page.locator('.toast, [role="alert"], .loader-card').allInnerTexts();
          throw new Error(`${String(err)}\nthe page showed instead: ${JSON.stringify(shown)}`, { cause: err });
        });
      await expect(page.getByText('The PDF report could not be created. Please try again.')).toHaveCount(0);

      // Back online, the page asks again and the worker fetches it.
      await proxy.online();
      await waitForLaterFiles(page);
    } finally {
      await proxy.online();
      proxy.unfollow(context);
      await context.close();
    }
  });

  test('a fetch of the PDF engine that fails is tried again, without a reload', async () => {
    test.setTimeout(150_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    proxy.follow(context);
    const page = await context.newPage();
    try {
      // A device that lost them, on a connection that fails the next fetch of the engine.
      await loginThenLoseLaterFiles(context, page);
      const engine = (_method: string, p: string) => /^\/assets\/pdfmake-[\w-]+\.js$/.test(p);
      proxy.serverErrors(1, 503, { match: engine });
      const failedBefore = proxy.stats().failed;
      await proxy.online();
      // The first attempt meets the 503; the page asks again after a pause (src/lib/fetch-later.ts).
      await expect.poll(() => proxy.stats().failed, { timeout: 30_000 }).toBe(failedBefore + 1);
      await waitForLaterFiles(page);
    } finally {
      await proxy.reset();
      proxy.unfollow(context);
      await context.close();
    }
  });
});
