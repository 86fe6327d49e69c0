// The proof of the offline-first foundation (issue "The offline-first app shell"): a patient on a
// ward with failing Wi-Fi loses nothing, nothing is sent twice, and nothing readable stays behind.
import { expect, test } from '../fixtures/index.ts';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  apiLogin,
  FaultProxy,
  openReadings,
  todayShows,
  launchChromium,
  saveReading,
  serverReadings,
  startServer,
  type EddyServer,
  until,
} from '../fixtures/index.ts';

let server: EddyServer;
// The page (and its service worker) reach the server through this proxy, so "offline" cuts every
// request of the device, the worker's Background Sync replays included (context.setOffline does not).
let proxy: FaultProxy;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let sessionToken = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = await startServer();
  proxy = await FaultProxy.start(server.url);
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  proxy.follow(context);
  page = await context.newPage();
  page.on('response', async (res) => {
    if (res.url().endsWith('/api/auth/loginWithPassword') && res.ok()) sessionToken = String(((await res.json()) as { token?: string }).token ?? '');
  });
});

test.afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.cleanup();
});

async function login(hospNo: string, password: string) {
  await page.goto(`${proxy.url}/`);
  await page.getByLabel('Hospital number').fill(hospNo);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.waitForURL(/\/app$/);
  await page.getByLabel('Glucose (mg/dL)').waitFor();
}

async function record(value: number) {
  await page.getByRole('radio', { name: 'Random' }).check();
  await page.getByLabel('Glucose (mg/dL)').fill(String(value));
  await saveReading(page, value);
  await listed(value);
}

/** The reading is shown in today's readings on the dashboard. */
async function listed(value: number) {
  await todayShows(page, 'Random', value).waitFor({ timeout: 15_000 });
}

/** Everything the browser keeps for this origin, as text: IndexedDB, localStorage, Cache Storage. */
async function dumpBrowserStorage(): Promise<string> {
  return page.evaluate(async () => {
    const out: string[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name as string);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const storeName of Array.from(db.objectStoreNames)) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(storeName, 'readonly').objectStore(storeName).getAll();
          req.onsuccess = () => resolve(req.result as unknown[]);
          req.onerror = () => reject(req.error);
        });
        out.push(`${info.name}/${storeName}: ${JSON.stringify(rows)}`);
      }
      db.close();
    }
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i) ?? '';
      out.push(`localStorage ${k}: ${localStorage.getItem(k) ?? ''}`);
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        const res = await cache.match(req);
        const type = res?.headers.get('content-type') ?? '';
        // Code, styles, fonts and images are the app's own files, never patient data (a font's
        // binary glyph tables once held "373" by chance); everything else is read as text.
        const asset = /javascript|css|font|image|octet-stream|wasm/.test(type) || /\.(ttf|otf|woff2?|png|svg|ico|webp)$/.test(new URL(req.url).pathname);
        out.push(`cache ${name} ${req.url}: ${asset ? '(asset)' : ((await res?.text()) ?? '')}`);
      }
    }
    return out.join('\n');
  });
}

/** A number standing alone (not inside base64 or an id): how a plain value would appear. */
// A value as a number of its own: not part of a longer token, and not the decimals of another
// number (RxDB's `_meta.lwt` times such as 1795478364601.373 once matched 373 by chance).
const plain = (n: number) => new RegExp(`(?<![A-Za-z0-9_.-])${n}(?![A-Za-z0-9_-]|\\.\\d)`);

test.describe('offline-first patient app in Chromium', () => {
  // One story told in steps: a step that fails leaves the next ones nothing to stand on.
  test.describe.configure({ mode: 'serial' });
  const values = { online: 347, offline: [351, 362, 373], crash: 384 };
  const times: Record<number, number> = {};

  test('1. logs in with a password, records a reading, and the server has it', async () => {
    await login('100001', 'Demo-patient-1');
    times[values.online] = Date.now();
    await record(values.online);
    const token = await apiLogin(server.url, '100001', 'Demo-patient-1');
    await until(
      'the server to hold the reading',
      async () => ((await serverReadings(server.url, token)).some((r) => r.value === values.online) ? true : undefined),
      45_000,
    );
    // The service worker controls the page from now on, so the app can start without a network.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await until('the service worker to control the page', async () =>
      (await page.evaluate(() => navigator.serviceWorker.controller !== null)) ? true : undefined,
    );
  });

  test('2. offline: records three readings, survives a reload and shows all four', async () => {
    await proxy.offline();
    for (const v of values.offline) {
      times[v] = Date.now();
      await record(v);
    }
    await page.reload();
    await page.getByLabel('Glucose (mg/dL)').waitFor({ timeout: 20_000 });
    expect(page.url()).toMatch(/\/app$/);
    for (const v of [values.online, ...values.offline]) await listed(v);
  });

  test('3. back online: "Data synchronized successfully", and the server holds each reading once with its time', async () => {
    await proxy.online();
    await page.getByText('Data synchronized successfully').first().waitFor({ timeout: 45_000 });
    const token = await apiLogin(server.url, '100001', 'Demo-patient-1');
    const mine = await until(
      'all readings on the server',
      async () => {
        const all = (await serverReadings(server.url, token)).filter((r) => [values.online, ...values.offline].includes(r.value));
        return all.length >= 4 ? all : undefined;
      },
      45_000,
    );
    expect(mine.map((r) => r.value).sort()).toEqual([values.online, ...values.offline].sort());
    for (const r of mine) {
      // The time the reading was taken on the device, not when it reached the server.
      expect(Math.abs(Date.parse(r.recordedAt) - (times[r.value] ?? 0))).toBeLessThan(60_000);
    }
  });

  test('4. the server dies while a write is in flight: after a restart nothing is lost or doubled', async () => {
    // The add reaches the server and is stored, but the server dies before the answer arrives.
    // The handler is waited on to its end: unrouting while it still runs would let the request
    // through (and fail its abort with "Route is already handled").
    let crashed!: () => void;
    const handlerDone = new Promise<void>((resolve) => (crashed = resolve));
    await page.route(
      '**/api/glucose/add',
      async (route) => {
        try {
          await route.fetch();
          await server.stop('SIGKILL');
          await route.abort('connectionreset');
        } finally {
          crashed();
        }
      },
      { times: 1 },
    );
    times[values.crash] = Date.now();
    await record(values.crash);
    await handlerDone;
    await until(
      'the server to be down',
      async () =>
        await fetch(`${server.url}/api/health`).then(
          () => undefined,
          () => true,
        ),
    );
    await page.unroute('**/api/glucose/add');
    await server.restart();
    const token = await apiLogin(server.url, '100001', 'Demo-patient-1');
    await until(
      'the replayed write',
      async () => {
        const readings = (await serverReadings(server.url, token)).filter((r) => r.value === values.crash);
        const pending = await page.getByTestId('sync-badge').count();
        return readings.length === 1 && pending === 0 ? readings : undefined;
      },
      60_000,
    );
    const all = (await serverReadings(server.url, token)).filter((r) => [values.online, ...values.offline, values.crash].includes(r.value));
    expect(all).toHaveLength(5);
  });

  test('5. neither the session token nor a glucose value is stored in plain form anywhere', async () => {
    expect(sessionToken.length).toBeGreaterThan(20);
    const dump = await dumpBrowserStorage();
    expect(dump.length).toBeGreaterThan(100);
    expect(dump).not.toContain(sessionToken);
    for (const v of [values.online, ...values.offline, values.crash]) {
      const found = plain(v).exec(dump);
      expect(found ? dump.slice(Math.max(0, found.index - 120), found.index + 40) : null, `${v} in plain form`).toBeNull();
    }
  });

  test('6. logout removes the local data and key; the next patient sees none of it', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('Hospital number').waitFor();
    const left = await page.evaluate(async () => {
      const names = (await indexedDB.databases()).map((d) => d.name ?? '');
      return { names, localStorage: Object.keys(localStorage) };
    });
    expect(left.names.filter((n) => n.includes('rxdb'))).toEqual([]);
    expect(left.localStorage.filter((k) => k.startsWith('user_'))).toEqual([]);
    const keyCount = await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open('eddy-keys');
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      if (!db.objectStoreNames.contains('keys')) return 0;
      return new Promise<number>((resolve) => {
        const req = db.transaction('keys', 'readonly').objectStore('keys').count();
        req.onsuccess = () => resolve(req.result);
      });
    });
    expect(keyCount).toBe(0);

    await login('100002', 'Demo-patient-2');
    // Every reading this device shows the second patient, on the readings page.
    await openReadings(page);
    await page.getByTestId('glucose-list-Random').and(page.locator(':not([aria-busy="true"])')).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    for (const v of [values.online, ...values.offline, values.crash]) expect(text).not.toMatch(plain(v));
  });
});
