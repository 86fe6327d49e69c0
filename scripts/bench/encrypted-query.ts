// `encryptedQueryRatio` of `npm run bench`: what encryption at rest costs a screen. The same 10,000
// readings in the glucose collection on the app's storage (Dexie under the AES-GCM wrapper) and on
// Dexie alone, in the same Chromium, asked the same 90-day query on a database just opened (nothing
// cached, as after a reload); the ratio of the medians, encrypted ÷ plain.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { median } from '../../report/statistics.ts';
import { launchChromium, root } from '../../tests/fixtures/index.ts';
import type { QueryTimings } from './encrypted-query.page.ts';

const READINGS = 10_000;
const ROUNDS = 9;

export interface EncryptedQueryFigure {
  ratio: number;
  encryptedMs: number;
  plainMs: number;
  matched: number;
}

/** The page module, bundled for the browser as the app is (production mode, minified). */
async function bundle(): Promise<string> {
  const outDir = await mkdtemp(path.join(tmpdir(), 'eddy-bench-'));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      root,
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2022',
        lib: { entry: path.join(root, 'scripts/bench/encrypted-query.page.ts'), formats: ['es'], fileName: () => 'bench.js' },
      },
    });
    return await readFile(path.join(outDir, 'bench.js'), 'utf8');
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export async function encryptedQuery(): Promise<EncryptedQueryFigure> {
  const code = await bundle();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // A page of its own origin (localhost counts as secure, so WebCrypto is there), served by the route.
    const origin = 'http://localhost:4999';
    await page.route(`${origin}/**`, (route) =>
      route.request().url().endsWith('/bench.js')
        ? route.fulfill({ contentType: 'text/javascript', body: code })
        : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>bench</title><script type="module" src="/bench.js"></script>' }),
    );
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => 'benchEncryptedQuery' in globalThis);
    const t = await page.evaluate(
      ([count, rounds]) =>
        (globalThis as unknown as { benchEncryptedQuery: (c: number, r: number) => Promise<QueryTimings> }).benchEncryptedQuery(count, rounds),
      [READINGS, ROUNDS] as const,
    );
    const encryptedMs = median(t.encrypted) ?? Number.NaN;
    const plainMs = median(t.plain) ?? Number.NaN;
    return { ratio: Math.round((encryptedMs / plainMs) * 100) / 100, encryptedMs: Math.round(encryptedMs), plainMs: Math.round(plainMs), matched: t.matched };
  } finally {
    await browser.close();
  }
}
