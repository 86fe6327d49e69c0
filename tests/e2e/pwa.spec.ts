// The installable, offline-capable shell in a real Chromium against the built app (dist/, made by
// `npm run build`) served by the real server on its own database: the service worker takes control,
// the manifest makes the app installable, the app starts with the network off, /api is never
// answered from a cache, the worker replays on request and on Background Sync, and a new version
// takes over and reloads the page exactly once.
import { CHROMIUM_ARGS, chromiumPath, expect, FaultProxy, test, workerVersions } from '../fixtures/index.ts';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { build } from 'vite';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/client.ts';
import type * as OutboxModule from '../../sync/outbox.ts';
import { call, loginPatient, openTestDatabase, seedFixture } from '../../server/testing/harness.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
if (!existsSync(path.join(dist, 'index.html')) || !existsSync(path.join(dist, 'sw.js')))
  throw new Error('dist/index.html or dist/sw.js is missing (run `npm run build`)');

test.describe('PWA in Chromium', () => {
  let app: FastifyInstance;
  let dropDatabase: () => Promise<void>;
  let dataDir: string;
  let browser: Browser;
  let base: string;
  // The pages (and their service worker) reach the server through this proxy in front of `base`, so
  // "offline" cuts every request of the device, the worker's own included (context.setOffline does not).
  let proxy: FaultProxy;
  /** Where the browser opens the app: the proxy's address. */
  let site: string;
  let db: Db;
  /** When set, /sw.js is served with this line appended: a new version of the worker. */
  let swVersionSuffix: string | undefined;
  /** When set, POST /api/glucose/add answers with this status (a server in trouble). */
  let glucoseAddStatus: number | undefined;
  const contexts: BrowserContext[] = [];

  test.beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'eddy-pwa-e2e-'));
    const { database, drop } = await openTestDatabase();
    dropDatabase = drop;
    db = database.db;
    app = await buildApp({ config: loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), database, logger: false });
    // A new deploy without a new build: the same worker with one more line is a new version.
    app.addHook('onRequest', async (req, reply) => {
      const url = req.url.split('?')[0];
      if (url === '/api/glucose/add' && glucoseAddStatus !== undefined) {
        await reply.status(glucoseAddStatus).send({ message: 'Service Unavailable' });
      } else if (url === '/sw.js' && swVersionSuffix !== undefined) {
        const source = readFileSync(path.join(dist, 'sw.js'), 'utf8');
        await reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(`${source}\n${swVersionSuffix}\n`);
      }
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await FaultProxy.start(base);
    site = proxy.url;
    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
  });

  test.afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await proxy?.close();
    await app?.close();
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function openControlledPage(given?: BrowserContext): Promise<{ context: BrowserContext; page: Page }> {
    const context = given ?? (await browser.newContext());
    if (!given) contexts.push(context);
    proxy.follow(context);
    const page = await context.newPage();
    await page.goto(`${site}/`);
    // The app registers /sw.js after load; on first install the worker claims the page.
    await page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 })
      .catch(() => {
        throw new Error('no service worker controls the page: does src/main.tsx call startPwa() from src/lib/pwa.ts?');
      });
    return { context, page };
  }

  /** sync/outbox.ts as one classic script that puts its functions on globalThis.eddyOutbox. */
  async function bundleOutboxForPage(): Promise<string> {
    const entry = path.join(dataDir, 'outbox-entry.ts');
    await writeFile(entry, `import * as outbox from ${JSON.stringify(path.join(root, 'sync', 'outbox.ts'))};\nglobalThis.eddyOutbox = outbox;\n`);
    const result = await build({
      configFile: false,
      logLevel: 'silent',
      build: { write: false, minify: false, lib: { entry, formats: ['iife'], name: 'eddyOutboxBundle', fileName: () => 'outbox.js' } },
    });
    const output = Array.isArray(result) ? result[0] : result;
    const chunk = output && 'output' in output ? output.output[0] : undefined;
    if (!chunk || chunk.type !== 'chunk') throw new Error('bundling sync/outbox.ts for the page failed');
    return chunk.code;
  }

  const rootIsRendered = (page: Page) =>
    page.waitForFunction(() => (document.querySelector('#root')?.children.length ?? 0) > 0, undefined, { timeout: 10_000 });

  test('is installable: the linked manifest is valid and Chromium reports no installability error', async () => {
    // A persistent profile: Playwright's other contexts are incognito, where Chromium never installs.
    const profile = await mkdtemp(path.join(tmpdir(), 'eddy-pwa-profile-'));
    const persistent = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, args: CHROMIUM_ARGS });
    try {
      await checkInstallable(persistent);
    } finally {
      await persistent.close();
      await rm(profile, { recursive: true, force: true });
    }
  });

  async function checkInstallable(persistent: BrowserContext): Promise<void> {
    const { context, page } = await openControlledPage(persistent);
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');

    const res = await context.request.get(`${site}${href}`);
    expect(res.status()).toBe(200);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({
      name: 'Eddy - Diabetes Management',
      short_name: 'Eddy',
      start_url: '/app',
      scope: '/',
      display: 'standalone',
      theme_color: '#009B7E',
    });
    const has = (sizes: string, purpose: string) =>
      manifest.icons.find((i) => i.sizes === sizes && i.type === 'image/png' && (i.purpose ?? 'any').split(' ').includes(purpose));
    for (const [sizes, purpose] of [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ] as const) {
      const icon = has(sizes, purpose);
      expect(icon, `${sizes} ${purpose} icon`).toBeDefined();
      const png = await context.request.get(`${site}${icon?.src}`);
      expect(png.status()).toBe(200);
      expect(png.headers()['content-type']).toBe('image/png');
      // The PNG's IHDR holds its real width and height.
      const body = await png.body();
      expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`).toBe(sizes);
    }

    // Chromium's own verdict (the checks behind its install prompt).
    const cdp = await context.newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { errors: Array<{ message: string }> };
    expect(parsed.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
    expect(installabilityErrors).toEqual([]);
  }

  test('starts offline from the precache, deep links included, and never answers /api from a cache', async () => {
    const { context, page } = await openControlledPage();
    await rootIsRendered(page);
    // An API answer seen while online must not be kept for offline use.
    expect(await page.evaluate(() => fetch('/api/health').then((r) => r.status))).toBe(200);

    await proxy.offline();
    await page.reload();
    await rootIsRendered(page);
    expect(await page.title()).toContain('Eddy');

    // A page never opened before: the navigation fallback serves the precached index.html.
    await page.goto(`${site}/app/profile`);
    await rootIsRendered(page);
    expect(await page.title()).toContain('Eddy');
    expect(await page.locator('#root').innerText()).not.toMatch(/Internal Server Error|Page not found/i);

    const apiWhileOffline = await page.evaluate(() =>
      fetch('/api/health').then(
        (r) => `status ${r.status}`,
        () => 'network error',
      ),
    );
    expect(apiWhileOffline).toBe('network error');
    const cachedUrls = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      return urls;
    });
    expect(cachedUrls).toContain('/index.html');
    expect(cachedUrls.filter((u) => u.startsWith('/api'))).toEqual([]);

    // The navigation fallback leaves /api alone: offline, a navigation there fails (own tab: the
    // failed navigation leaves it on Chromium's error page).
    const tab = await context.newPage();
    const apiNavigation = await tab.goto(`${site}/api/health`).then(
      (r) => `status ${r?.status()}`,
      (err: Error) => err.message,
    );
    expect(apiNavigation).toMatch(/ERR_INTERNET_DISCONNECTED/);
    await proxy.online();
  });

  test('replays the outbox on request and on Background Sync and tells the page', async () => {
    const { page } = await openControlledPage();
    // Nobody is logged in, so there is nothing to send; the point is the round trip through the
    // worker's bundled outbox code (IndexedDB, Web Locks) and the message back.
    const viaMessage = await page.evaluate(
      () =>
        new Promise((resolve) => {
          navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data), { once: true });
          navigator.serviceWorker.controller?.postMessage({ type: 'replay' });
        }),
    );
    expect(viaMessage).toEqual({ type: 'replay-done', sent: 0, kept: 0, rejected: 0, unauthorized: false });

    const viaSync = await page.evaluate(async () => {
      const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
      if (!registration.sync) return 'no Background Sync';
      const done = new Promise((resolve) => navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data), { once: true }));
      await registration.sync.register('eddy-outbox');
      return done;
    });
    expect(viaSync).toEqual({ type: 'replay-done', sent: 0, kept: 0, rejected: 0, unauthorized: false });
  });

  test('replays a sealed outbox entry: a 5xx keeps it, Background Sync later delivers it once', async () => {
    const patient = (await seedFixture(db)).patientA;
    const token = await loginPatient(app, patient.hospNo, patient.password);
    // The built app exposes no outbox to a test, so the page gets sync/outbox.ts bundled on its own
    // (bypassCSP lets the test add that script); it shares the origin's IndexedDB with the worker.
    const { context, page } = await openControlledPage(await browser.newContext({ bypassCSP: true }));
    await page.addScriptTag({ content: await bundleOutboxForPage() });

    const id = randomUUID();
    const recordedAt = new Date(Date.now() - 3_600_000).toISOString();
    await page.evaluate(
      async ({ token, id, recordedAt }) => {
        const outbox = (globalThis as unknown as { eddyOutbox: typeof OutboxModule }).eddyOutbox;
        await outbox.setReplaySession({ token, deviceId: crypto.randomUUID() });
        const body = { _id: id, type: 'Fasting', value: 123, recordedAt };
        await outbox.enqueue({ collection: 'glucose', docId: id, kind: 'add', path: '/glucose/add', body, madeAt: Date.parse(recordedAt) });
      },
      { token, id, recordedAt },
    );

    // Nothing in the worker's queue is readable: the token appears nowhere in its raw IndexedDB.
    const raw = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const open = indexedDB.open('eddy-outbox');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction(['entries', 'meta']);
            const rows: unknown[] = [];
            for (const name of ['entries', 'meta']) {
              const req = tx.objectStore(name).getAll();
              req.onsuccess = () => rows.push(req.result);
            }
            tx.oncomplete = () => resolve(JSON.stringify(rows));
          };
        }),
    );
    expect(raw).toContain('sealed');
    expect(raw).not.toContain(token);

    // Listens first, then triggers, in one go: the worker's answer cannot be missed.
    const replayVia = (trigger: 'message' | 'sync') =>
      page.evaluate(async (trigger) => {
        const done = new Promise((resolve) => {
          const onMessage = (e: MessageEvent) => {
            if ((e.data as { type?: string }).type !== 'replay-done') return;
            navigator.serviceWorker.removeEventListener('message', onMessage);
            resolve(e.data);
          };
          navigator.serviceWorker.addEventListener('message', onMessage);
        });
        const registration = (await navigator.serviceWorker.ready) as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
        if (trigger === 'message') registration.active?.postMessage({ type: 'replay' });
        else if (registration.sync) await registration.sync.register('eddy-outbox');
        else return 'no Background Sync';
        return done;
      }, trigger);
    const readings = async () => {
      const res = await call(app, 'GET', '/api/glucose', { token });
      return (res.json['fasting'] as Array<{ _id: string; value: number; recordedAt: string }>).filter((r) => r._id === id);
    };

    glucoseAddStatus = 503;
    try {
      expect(await replayVia('message')).toEqual({ type: 'replay-done', sent: 0, kept: 1, rejected: 0, unauthorized: false });
    } finally {
      glucoseAddStatus = undefined;
    }
    expect(await readings()).toEqual([]);

    expect(await replayVia('sync')).toEqual({ type: 'replay-done', sent: 1, kept: 0, rejected: 0, unauthorized: false });
    expect(await readings()).toMatchObject([{ _id: id, value: 123, recordedAt }]);
    await context.close();
  });

  test('a new version takes over and reloads the page exactly once', async () => {
    const { page } = await openControlledPage();
    await rootIsRendered(page);
    let loads = 0;
    page.on('load', () => loads++);
    // The first install's claim of the page must not have reloaded it.
    expect(await page.evaluate(() => sessionStorage.getItem('eddy-sw-reload-at'))).toBeNull();

    swVersionSuffix = `// version ${Date.now()}`;
    try {
      // What the page's 20 s poll does (the interval itself is covered by src/lib/pwa.test.ts).
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
      await expect.poll(() => loads, { timeout: 15_000 }).toBe(1);
      await rootIsRendered(page);
      // A second reload could only come from another controllerchange, i.e. another worker taking
      // over: once the new version is activated and in control with none installing or waiting, and
      // the reloaded page has loaded (it registers the worker after load), none can come.
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const registration = await navigator.serviceWorker.getRegistration();
              return {
                loaded: document.readyState,
                active: registration?.active?.state,
                inControl: registration?.active !== null && navigator.serviceWorker.controller === registration?.active,
                installing: registration?.installing?.state ?? null,
                waiting: registration?.waiting?.state ?? null,
              };
            }),
          { timeout: 15_000 },
        )
        .toEqual({ loaded: 'complete', active: 'activated', inControl: true, installing: null, waiting: null });
      expect(loads).toBe(1);
      // The browser's own view agrees (what a chaos run logs when a reload hangs): the new version
      // runs and controls this page, and no other version is left in control or waiting.
      const versions = await workerVersions(page);
      expect(versions).toMatch(/#\d+ activated, running, controls 1/);
      expect(versions).not.toMatch(/installed|activating|controls [1-9].*controls [1-9]/);
      const after = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return {
          controlled: navigator.serviceWorker.controller !== null,
          waiting: registration?.waiting !== null,
          marker: sessionStorage.getItem('eddy-sw-reload-at'),
        };
      });
      expect(after).toMatchObject({ controlled: true, waiting: false });
      expect(Number(after.marker)).toBeGreaterThan(0);
    } finally {
      swVersionSuffix = undefined;
    }
  });
});
