// What the login page's first visit loads (docs/requirements.md §11, `loginRouteGzipKb` of `npm run bench`):
// the storage, the ciphers, RxDB and the sync code load only once a session starts. A static
// import of a module with Dexie in a runtime every page carries put Dexie on this route unnoticed
// for a day (128 → 159 KB); this test names such a module by its source files, read from the
// build's source maps, and holds the route to its budget.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, launchChromium, root, startServer, test } from '../fixtures/index.ts';

/** The login route's JavaScript budget, gzipped at level 9 (docs/requirements.md §11). */
const BUDGET_KB = 130;

/** Code that must not load before a session starts, by source path. */
const NOT_ON_LOGIN = [
  /node_modules\/dexie\//,
  /node_modules\/rxdb\//,
  /node_modules\/uplot\//,
  /node_modules\/pdfmake\//,
  /\/sync\/(outbox|replication|controller|drain|parking)\.ts$/,
  // What the device keeps, but the secure store, which holds the session sealed from the start.
  /\/sync\/storage\/(?!secure-storage\.ts$)/,
];

/** The scripts the page fetches from now on, with their bodies. */
function collectScripts(page: Page): Promise<{ file: string; body: Buffer }>[] {
  const scripts: Promise<{ file: string; body: Buffer }>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script' || res.url().endsWith('.js'))
      scripts.push(res.body().then((body) => ({ file: new URL(res.url()).pathname, body })));
  });
  return scripts;
}

/** The source files the given chunks were built from, as "chunk: source", read from the build's source maps. */
async function sourcesOf(loaded: { file: string; body: Buffer }[]): Promise<string[]> {
  const sources: string[] = [];
  for (const { file } of loaded) {
    // The maps stay in dist/, never referenced nor served (issue 48). The bundler's own runtime
    // chunk is generated code with no sources and no map.
    const text = await readFile(path.join(root, 'dist', `${file}.map`), 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined;
      throw err;
    });
    if (text === undefined) continue;
    const map = JSON.parse(text) as { sources: string[] };
    sources.push(...map.sources.map((s) => `${file}: ${path.posix.normalize(s)}`));
  }
  return sources;
}

test('the login page loads no storage, cipher, database or sync code, and stays within its script budget', async () => {
  test.setTimeout(120_000);
  const server = await startServer();
  // A first visit: no cookie choice saved yet, so the cookie banner's code counts too.
  const browser = await launchChromium({ savedCookieChoice: false });
  try {
    const page = await browser.newPage();
    const scripts = collectScripts(page);
    await page.goto(`${server.url}/`);
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForLoadState('networkidle');
    const loaded = await Promise.all(scripts);
    expect(loaded.length).toBeGreaterThan(0);

    const sources = await sourcesOf(loaded);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => NOT_ON_LOGIN.some((pattern) => pattern.test(s)))).toEqual([]);

    const kb = loaded.reduce((sum, s) => sum + gzipSync(s.body, { level: 9 }).length, 0) / 1024;
    expect(kb, `the login route loads ${kb.toFixed(1)} KB of gzipped JavaScript`).toBeLessThanOrEqual(BUDGET_KB);
  } finally {
    await browser.close();
    await server.cleanup();
  }
});

test('once the patient types, the dashboard’s code is fetched before the login is sent', async () => {
  test.setTimeout(120_000);
  const server = await startServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForLoadState('networkidle');
    const scripts = collectScripts(page);
    const api: string[] = [];
    page.on('request', (req) => {
      if (new URL(req.url()).pathname.startsWith('/api/')) api.push(req.url());
    });
    await page.getByLabel('Hospital number').pressSequentially('1000');
    // The database, the replication and the dashboard's own chunk (the router splits a page's component
    // off its route); nothing is sent, opened or stored: only code arrives.
    const wanted = [
      /node_modules\/rxdb\//,
      /node_modules\/dexie\//,
      /\/sync\/storage\/database\.ts$/,
      /\/sync\/replication\.ts$/,
      /\/src\/routes\/app\/index\.tsx\?tsr-split=component$/,
    ];
    const missing = async () => {
      const found = await sourcesOf(await Promise.all(scripts));
      return wanted.filter((w) => !found.some((s) => w.test(s))).map(String);
    };
    await expect.poll(missing, { timeout: 30_000 }).toEqual([]);
    expect(api).toEqual([]);
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).toEqual([]);
  } finally {
    await browser.close();
    await server.cleanup();
  }
});
