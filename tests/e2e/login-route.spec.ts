// What the login page's first visit loads (docs/requirements.md §11, `loginRouteGzipKb` of `npm run bench`):
// the storage, the ciphers, RxDB and the sync code load only once a session starts. A static
// import of a module with Dexie in a runtime every page carries put Dexie on this route unnoticed
// for a day (128 → 159 KB); this test names such a module by its source files, read from the
// build's source maps, and holds the route to its budget.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, launchChromium, root, startServer, test } from '../fixtures/index.ts';

/** The login route's JavaScript budget, gzipped at level 9 (docs/requirements.md §11). */
const BUDGET_KB = 130;

/** Code that must not load before a session starts, by source path. */
const NOT_ON_LOGIN = [/node_modules\/dexie\//, /node_modules\/rxdb\//, /node_modules\/uplot\//, /node_modules\/pdfmake\//, /\/sync\/(crypto|outbox|replication|controller|drain|parking|push-inbox)\.ts$/, /\/src\/lib\/db\//];

test('the login page loads no storage, cipher, database or sync code, and stays within its script budget', async () => {
  test.setTimeout(120_000);
  const server = await startServer();
  // A first visit: no cookie choice saved yet, so the cookie banner's code counts too.
  const browser = await launchChromium({ savedCookieChoice: false });
  try {
    const page = await browser.newPage();
    const scripts: Promise<{ file: string; body: Buffer }>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script' || res.url().endsWith('.js')) scripts.push(res.body().then((body) => ({ file: new URL(res.url()).pathname, body })));
    });
    await page.goto(`${server.url}/`);
    await page.getByLabel('Hospital number').waitFor();
    await page.waitForLoadState('networkidle');
    const loaded = await Promise.all(scripts);
    expect(loaded.length).toBeGreaterThan(0);

    const sources: string[] = [];
    for (const { file, body } of loaded) {
      // The bundler's own runtime chunk is generated code with no sources and no map.
      if (!body.toString('utf8').includes('//# sourceMappingURL=')) continue;
      const map = JSON.parse(await readFile(path.join(root, 'dist', `${file}.map`), 'utf8')) as { sources: string[] };
      sources.push(...map.sources.map((s) => `${file}: ${path.posix.normalize(s)}`));
    }
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((s) => NOT_ON_LOGIN.some((pattern) => pattern.test(s)))).toEqual([]);

    const kb = loaded.reduce((sum, s) => sum + gzipSync(s.body, { level: 9 }).length, 0) / 1024;
    expect(kb, `the login route loads ${kb.toFixed(1)} KB of gzipped JavaScript`).toBeLessThanOrEqual(BUDGET_KB);
  } finally {
    await browser.close();
    await server.cleanup();
  }
});
