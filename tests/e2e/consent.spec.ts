// Cookie consent in the built app (docs/requirements.md §2, §4, §7–§9): the banner and each of its transitions in
// offline mode (the default build), then remote mode (c15t 2.x: GET /init, POST /subjects) against
// the real server, a server that fails twice, one that is down, and a device that answered under
// c15t 1.x. Remote mode is a build setting (VITE_CONSENT_MODE=remote), so that
// build is made here into a temporary folder and its files are served to the browser in place of
// dist/; every /api request still goes to the real server.
import { expect, test } from '../fixtures/index.ts';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';
import { launchChromium, screenshot, SCREENSHOT_DIR, seriousA11yViolations, startServer, uiLogin, until, type EddyServer } from '../fixtures/index.ts';

const root = path.resolve(import.meta.dirname, '../..');
const RECORD_KEY = 'eddy-cookie-consent';
const C15T_KEY = 'c15t-consent';
const PENDING_KEY = 'c15t-pending-consent-submissions';

let server: EddyServer;
let browser: Browser;
let context: BrowserContext | undefined;
let remoteDist: string | undefined;
let logs: string[];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer({ env: { AUTH_RATE_LIMIT: '200', CONSENT_RATE_LIMIT: '1000' } });
  browser = await launchChromium({ savedCookieChoice: false });
});

test.afterEach(async () => {
  await context?.close();
  context = undefined;
});

test.afterAll(async () => {
  await browser?.close();
  await server?.cleanup();
  if (remoteDist) await rm(path.dirname(remoteDist), { recursive: true, force: true });
});

interface Open {
  width?: number;
  /** Serve the remote-mode build instead of dist/. */
  remote?: boolean;
  /** Without the service worker, which would serve the app's files from its cache past any route. */
  noWorker?: boolean;
  init?: () => void;
}

/** A fresh browser profile (nothing saved) on the login page. */
async function open({ width = 360, remote = false, noWorker = remote, init }: Open = {}): Promise<Page> {
  context = await browser.newContext({ bypassCSP: true, serviceWorkers: noWorker ? 'block' : 'allow', viewport: { width, height: width < 600 ? 780 : 900 } });
  if (init) await context.addInitScript(init);
  if (remote) {
    const dist = await remoteBuild();
    await context.route(
      (url) => url.origin === server.url && !url.pathname.startsWith('/api/'),
      (route) => {
        const file = path.join(dist, new URL(route.request().url()).pathname);
        return route.fulfill({ path: path.extname(file) && existsSync(file) ? file : path.join(dist, 'index.html') });
      },
    );
  }
  const page = await context.newPage();
  logs = [];
  page.on('console', (m) => logs.push(m.text()));
  await page.goto(`${server.url}/`);
  await page.getByLabel('Hospital number').waitFor();
  return page;
}

async function remoteBuild(): Promise<string> {
  if (remoteDist) return remoteDist;
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'eddy-consent-remote-')), 'dist');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const res = spawnSync(process.execPath, [vite, 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: root,
    env: { ...process.env, VITE_CONSENT_MODE: 'remote' },
    encoding: 'utf8',
  });
  if (res.status !== 0) throw new Error(`remote-mode build failed:\n${res.stdout}\n${res.stderr}`);
  remoteDist = dir;
  return dir;
}

/** What the screen shows (the sheet is fixed to the viewport, which a full-page picture misplaces). */
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
const sheet = (page: Page) => page.getByRole('region', { name: 'Cookie Preferences' });
const button = (page: Page, name: string) => sheet(page).getByRole('button', { name, exact: true });
const toggle = (page: Page, name: string) => sheet(page).getByRole('switch', { name: new RegExp(name) });
const stored = (page: Page, key: string) => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null') as unknown, key);
/** The deferred banner's chunk, or c15t's (what a page that shows the banner fetches). */
const bannerCode = (url: string) => /\/assets\/(deferred-banner|consent-root|c15t)-[^/]*\.js$/.test(new URL(url).pathname);
const consentCalls = (requests: Request[], endpoint: string) => requests.filter((r) => new URL(r.url()).pathname === `/api/c15t${endpoint}`);

async function choose(page: Page, name: 'Reject All' | 'Save Preferences' | 'Accept All'): Promise<void> {
  await button(page, name).click();
  await sheet(page).waitFor({ state: 'hidden' });
}

/** POST /api/c15t/consent/verify by the subject id c15t 2.x made on the device (or a 1.x record id). */
async function verify(subjectId: string, preferences: string[]) {
  const res = await fetch(`${server.url}/api/c15t/consent/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'cookie_banner', domain: '127.0.0.1', subjectId, preferences }),
  });
  return (await res.json()) as { isValid: boolean; consent?: { purposeIds: string[] } };
}

test.describe('cookie consent, offline (the default build)', () => {
  test('shows the banner only while no choice is saved, and remembers the choice across reloads', async () => {
    const page = await open();
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    // The banner renders just after the login form: wait for it rather than sample it once.
    await sheet(page).waitFor({ state: 'visible', timeout: 5_000 });
    await expect(sheet(page).getByText('Always Active').isVisible()).resolves.toBe(true);
    await expect(sheet(page).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).resolves.toBe('/privacy');
    await expect(seriousA11yViolations(page)).resolves.toEqual([]);
    await shot(page, 'consent-banner-360');

    await choose(page, 'Accept All');
    // The first visit fetched the banner's own code; a page that means to show it again does the same.
    expect(requests.some((r) => bannerCode(r.url()))).toBe(true);
    for (let i = 0; i < 2; i++) {
      const before = requests.length;
      await page.reload();
      await page.getByLabel('Hospital number').waitFor();
      // The banner is decided as the app starts and needs its code fetched to show: once the network
      // is idle (every chunk the start asked for has arrived) without that code asked for, none can come.
      await page.waitForLoadState('networkidle');
      expect(
        requests
          .slice(before)
          .filter((r) => bannerCode(r.url()))
          .map((r) => r.url()),
      ).toEqual([]);
      await expect(sheet(page).count()).resolves.toBe(0);
    }
    // Offline mode: the consent client never calls the network.
    expect(requests.filter((r) => r.url().includes('/api/c15t'))).toEqual([]);
  });

  test('Reject All refuses analytics and functional, and the choice is the spec record', async () => {
    const page = await open();
    await choose(page, 'Reject All');
    expect(await stored(page, RECORD_KEY)).toMatchObject({
      type: 'cookie_banner',
      domain: '127.0.0.1',
      preferences: { necessary: true, analytics: false, functional: false },
    });
    expect(await stored(page, C15T_KEY)).toMatchObject({ consents: { necessary: true, measurement: false, functionality: false } });
    expect(typeof ((await stored(page, RECORD_KEY)) as { timestamp: unknown }).timestamp).toBe('number');
  });

  test('Accept All allows both', async () => {
    const page = await open();
    await choose(page, 'Accept All');
    expect(await stored(page, RECORD_KEY)).toMatchObject({ preferences: { necessary: true, analytics: true, functional: true } });
    expect(await stored(page, C15T_KEY)).toMatchObject({ consents: { measurement: true, functionality: true } });
  });

  test('Save Preferences keeps the switches as set', async () => {
    const page = await open();
    await toggle(page, 'Analytics').click();
    await expect(toggle(page, 'Analytics').isChecked()).resolves.toBe(true);
    await toggle(page, 'Functional').click();
    await toggle(page, 'Functional').click();
    await choose(page, 'Save Preferences');
    expect(await stored(page, RECORD_KEY)).toMatchObject({ preferences: { necessary: true, analytics: true, functional: false } });
    expect(await stored(page, C15T_KEY)).toMatchObject({ consents: { measurement: true, functionality: false } });
  });

  test('keeps the banner and only logs when the save fails', async () => {
    const page = await open({
      init: () => {
        const setItem = Storage.prototype.setItem;
        Storage.prototype.setItem = function (key: string, value: string) {
          if (key === 'eddy-cookie-consent') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
          setItem.call(this, key, value);
        };
      },
    });
    await button(page, 'Accept All').click();
    await until('the failure in the log', async () => (logs.some((l) => l.includes('Saving the cookie preferences failed')) ? true : undefined), 10_000);
    // The banner renders just after the login form: wait for it rather than sample it once.
    await sheet(page).waitFor({ state: 'visible', timeout: 5_000 });
    await expect(button(page, 'Accept All').isEnabled()).resolves.toBe(true);
    expect(await stored(page, C15T_KEY)).toBeNull();
    await page.reload();
    await sheet(page).waitFor();
  });

  test('Cookie preferences on the privacy page removes the choice and reloads, so the banner asks again', async () => {
    const page = await open();
    await choose(page, 'Reject All');
    await page.getByRole('link', { name: 'Privacy Policy' }).click();
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    await expect(page.getByText('Language cookie (i18n_redirected).').isVisible()).resolves.toBe(true);
    await expect(seriousA11yViolations(page)).resolves.toEqual([]);
    await screenshot(page, 'privacy-360');
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Cookie preferences' }).click();
    await reloaded;
    await sheet(page).waitFor();
    expect(await stored(page, RECORD_KEY)).toBeNull();
    expect(await stored(page, C15T_KEY)).toBeNull();
    expect(await page.evaluate(() => document.cookie)).not.toContain('c15t-consent');
  });

  test('Cookie preferences on the profile does the same for a patient', async () => {
    const page = await open();
    await choose(page, 'Accept All');
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
    await page.goto(`${server.url}/app/profile`);
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: 'Cookie preferences' }).click();
    await reloaded;
    await sheet(page).waitFor();
    expect(await stored(page, C15T_KEY)).toBeNull();
  });

  test('looks right at 360 px, at 1280 px and right-to-left', async () => {
    const wide = await open({ width: 1280 });
    await shot(wide, 'consent-banner-1280');
    await context?.close();
    const rtl = await open();
    await rtl.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    await rtl.emulateMedia({ reducedMotion: 'reduce' }); // the knob's slide would be measured halfway
    await toggle(rtl, 'Analytics').click();
    // Switched on, the knob sits at the end of the track: in right-to-left, its left side.
    const knob = await toggle(rtl, 'Analytics').evaluate((el) => {
      const before = getComputedStyle(el, '::before');
      return { left: parseFloat(before.left), right: parseFloat(before.right), direction: getComputedStyle(el).direction };
    });
    expect(knob.direction).toBe('rtl');
    expect(knob.left).toBeLessThan(knob.right);
    await shot(rtl, 'consent-banner-rtl');
    // The sheet spans the width and leaves room under the page for what it covers.
    const box = await sheet(rtl).boundingBox();
    expect(box).toMatchObject({ x: 0, width: 360 });
    const padding = await rtl.evaluate(() => parseFloat(getComputedStyle(document.body).paddingBlockEnd));
    expect(padding).toBeGreaterThanOrEqual(Math.floor(box!.height));
  });

  test('when the consent manager cannot load, the app still works and says so in the log', async () => {
    const page = await open({ noWorker: true });
    await context!.route(/\/assets\/c15t-[^/]*\.js$/, (route) => route.abort());
    // The first failed chunk may reload the page once (docs/requirements.md §8 chunk guard); the banner comes back.
    const unavailable = () => logs.some((l) => l.includes('Cookie consent manager not available'));
    for (let attempt = 0; attempt < 3 && !unavailable(); attempt++) {
      let reloaded = false;
      const onLoad = () => (reloaded = true);
      page.once('load', onLoad);
      await button(page, 'Accept All')
        .click({ timeout: 10_000 })
        .catch(() => undefined);
      // The press ends either in the log line, or in the chunk guard's reload, after which the
      // banner is back to be pressed again.
      await expect.poll(() => unavailable() || reloaded, { timeout: 15_000 }).toBe(true);
      page.off('load', onLoad);
      if (!unavailable()) await sheet(page).waitFor({ state: 'visible', timeout: 10_000 });
    }
    expect(unavailable()).toBe(true);
    // The banner renders just after the login form: wait for it rather than sample it once.
    await sheet(page).waitFor({ state: 'visible', timeout: 5_000 });
    expect(await stored(page, RECORD_KEY)).toBeNull();
    await uiLogin(page, server.url, '100001', 'Demo-patient-1');
  });
});

test.describe('cookie consent, remote mode (VITE_CONSENT_MODE=remote)', () => {
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    await remoteBuild();
  });

  test('asks the server whether to show the banner, records the choice there, and shows "Saving..." meanwhile', async () => {
    const requests: Request[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const page = await open({ remote: true });
    page.on('request', (r) => requests.push(r));
    await page.route('**/api/c15t/subjects', async (route) => {
      await held;
      await route.fallback();
    });
    await sheet(page).waitFor();
    await toggle(page, 'Functional').click();
    await button(page, 'Save Preferences').click();
    await button(page, 'Saving...').waitFor();
    for (const name of ['Reject All', 'Saving...', 'Accept All']) await expect(button(page, name).isDisabled(), name).resolves.toBe(true);
    await expect(toggle(page, 'Analytics').isDisabled()).resolves.toBe(true);
    await shot(page, 'consent-banner-saving');
    release();
    await sheet(page).waitFor({ state: 'hidden' });

    const [set] = consentCalls(requests, '/subjects');
    expect(set?.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const subjectId = ((await stored(page, C15T_KEY)) as { consentInfo: { subjectId: string } }).consentInfo.subjectId;
    expect(subjectId).toMatch(/^sub_[1-9A-HJ-NP-Za-km-z]+$/);
    expect(set?.postDataJSON()).toMatchObject({
      type: 'cookie_banner',
      domain: '127.0.0.1',
      subjectId,
      consentAction: 'custom',
      preferences: { necessary: true, measurement: false, functionality: true },
    });
    expect(await verify(subjectId, ['functionality'])).toMatchObject({ isValid: true, consent: { purposeIds: ['necessary', 'functionality'] } });
    expect((await verify(subjectId, ['measurement'])).isValid).toBe(false);

    // The page load asked the server (once per load), with an X-Request-ID.
    const banner = consentCalls(requests, '/init');
    await page.reload();
    await page.getByLabel('Hospital number').waitFor();
    await until('the banner question', async () => (consentCalls(requests, '/init').length > banner.length ? true : undefined), 10_000);
    expect(consentCalls(requests, '/init').at(-1)?.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // c15t has applied the server's answer (its store has the server's policy and is no longer
    // loading) and decided: the banner is drawn from that decision alone.
    await expect
      .poll(() =>
        page.evaluate((ns) => {
          type State = { lastBannerFetchData: { policy?: { id: string } } | null; isLoadingConsentInfo: boolean; activeUI: string };
          const state = (window as unknown as Record<string, { getState(): State } | undefined>)[ns]?.getState();
          return state && { policy: state.lastBannerFetchData?.policy?.id, loading: state.isLoadingConsentInfo, activeUI: state.activeUI };
        }, 'eddyConsentStore' /* CONSENT_STORE_NAMESPACE of src/features/consent/consent-config.ts */),
      )
      .toEqual({ policy: 'eddy_opt_in_banner', loading: false, activeUI: 'none' });
    await expect(sheet(page).count()).resolves.toBe(0);
  });

  test('retries a server that fails twice (503) after 100 and 200 ms, with a new X-Request-ID each time', async () => {
    const page = await open({ remote: true });
    const attempts: { at: number; id: string | undefined }[] = [];
    await page.route('**/api/c15t/subjects', async (route) => {
      attempts.push({ at: Date.now(), id: route.request().headers()['x-request-id'] });
      if (attempts.length <= 2) return route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Service Unavailable"}' });
      return route.fallback();
    });
    await sheet(page).waitFor();
    await choose(page, 'Accept All');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.id)).size).toBe(3);
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(90);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(190);
    const subjectId = ((await stored(page, C15T_KEY)) as { consentInfo: { subjectId: string } }).consentInfo.subjectId;
    expect((await verify(subjectId, ['measurement', 'functionality'])).isValid).toBe(true);
    expect(await stored(page, PENDING_KEY)).toBeNull();
  });

  test('with the server down: saves on the device, queues the save, and resubmits it 2 s after the next load', async () => {
    const page = await open({ remote: true });
    await page.route('**/api/c15t/**', (route) => route.abort('connectionrefused'));
    await page.reload();
    // The banner question fails too: c15t falls back to offline mode and shows the banner.
    await sheet(page).waitFor();
    await choose(page, 'Reject All');
    const queued = (await stored(page, PENDING_KEY)) as { type: string; preferences: Record<string, boolean> }[];
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      type: 'cookie_banner',
      domain: '127.0.0.1',
      subjectId: expect.stringMatching(/^sub_/),
      preferences: { measurement: false, functionality: false },
    });
    expect(await stored(page, C15T_KEY)).toMatchObject({ consents: { measurement: false } });

    // The server is back on the next load.
    await page.unroute('**/api/c15t/**');
    const sets: number[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/c15t/subjects')) sets.push(Date.now());
    });
    const loadedAt = Date.now();
    await page.reload();
    await until('the queued save sent', async () => ((await stored(page, PENDING_KEY)) === null ? true : undefined), 15_000);
    expect(sets).toHaveLength(1);
    expect(sets[0]! - loadedAt).toBeGreaterThanOrEqual(2000);
    await expect(sheet(page).count()).resolves.toBe(0);
    // Stored on the server: the newest choice from this address refuses analytics.
    const fromHere = async (preferences: string[]) => {
      const res = await fetch(`${server.url}/api/c15t/consent/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'cookie_banner', domain: '127.0.0.1', preferences }),
      });
      return (await res.json()) as { isValid: boolean; consent?: { purposeIds: string[] } };
    };
    expect(await fromHere(['necessary'])).toMatchObject({ isValid: true, consent: { purposeIds: ['necessary'] } });
    expect((await fromHere(['measurement'])).isValid).toBe(false);
  });
  test('a device that answered under c15t 1.x is not asked again, and the save 1.x queued reaches the server', async () => {
    const recordId = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
    // What c15t 1.x left on the device: a choice the server recorded (its record id, no subject id),
    // and a later save it could not send.
    const page = await open({
      remote: true,
      init: () => {
        if (location.protocol === 'about:' || localStorage.getItem('e2e-1x-seeded') !== null) return;
        localStorage.setItem('e2e-1x-seeded', '1');
        const consents = { necessary: true, functionality: true, measurement: false, experience: false, marketing: false };
        localStorage.setItem(
          'c15t-consent',
          JSON.stringify({ consents, consentInfo: { time: Date.now() - 86_400_000, id: '6f9619ff-8b86-4011-b42d-00c04fc964ff', identified: false } }),
        );
        localStorage.setItem(
          'c15t-pending-consent-submissions',
          JSON.stringify([
            { type: 'cookie_banner', domain: location.hostname, preferences: consents, metadata: { source: 'consent_widget', acceptanceMethod: 'custom' } },
          ]),
        );
      },
    });
    await until('the queued save sent', async () => ((await stored(page, PENDING_KEY)) === null ? true : undefined), 15_000);
    await page.waitForLoadState('networkidle');
    await expect(sheet(page).count()).resolves.toBe(0);
    const kept = (await stored(page, C15T_KEY)) as { consents: Record<string, boolean>; consentInfo: { id: string; subjectId: string } };
    expect(kept).toMatchObject({
      consents: { functionality: true, measurement: false },
      consentInfo: { id: recordId, subjectId: expect.stringMatching(/^sub_/) },
    });
    expect(await verify(kept.consentInfo.subjectId, ['functionality'])).toMatchObject({ isValid: true });
    // It stays that way across loads.
    await page.reload();
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForLoadState('networkidle');
    await expect(sheet(page).count()).resolves.toBe(0);
    expect(((await stored(page, C15T_KEY)) as { consentInfo: { subjectId: string } }).consentInfo.subjectId).toBe(kept.consentInfo.subjectId);
  });
});
