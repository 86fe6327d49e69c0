// The report PDF made in a real browser's module Web Worker: Vite bundles tests/support/report-worker
// (which imports report/ as the app's worker does; pdfmake resolves to its browser build,
// the fonts to its vfs), Chromium runs it, and pdftotext reads what came back.
import { expect, test } from '../fixtures/index.ts';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { build } from 'vite';
import { pdfmakeBidi } from '../../scripts/pdfmake-bidi-plugin.ts';
import { pdfText, writeTemp } from '../../report/testing/pdf-tools.ts';
import { launchChromium } from '../fixtures/index.ts';

const root = path.resolve(import.meta.dirname, 'report-worker');
type Result = { ok: true; bytes: Record<string, number>; progress: number } | { ok: false; error: string };

test.describe('report PDF in a browser Web Worker', () => {
  let outDir: string;
  let server: http.Server;
  let browser: Browser;
  let url: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    outDir = await mkdtemp(path.join(tmpdir(), 'eddy-report-worker-'));
    await build({
      root,
      configFile: false,
      logLevel: 'warn',
      build: { outDir, emptyOutDir: true, target: 'es2022' },
      worker: { format: 'es', plugins: () => [pdfmakeBidi()] },
    });
    const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      const file = path.join(outDir, req.url === '/' ? 'index.html' : ((req.url ?? '').split('?')[0] ?? ''));
      if (!file.startsWith(outDir) || !existsSync(file)) return void res.writeHead(404).end();
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.ttf') ? 'font/ttf' : 'text/html';
      const body = await readFile(file); // before the head: a file that cannot be read is answered 500 below
      res.writeHead(200, { 'content-type': type }).end(body);
    };
    // A failure is a 500 the page fails on, not an unhandled rejection.
    server = http.createServer((req, res) => {
      serve(req, res).catch((err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });

  test.afterAll(async () => {
    await browser?.close();
    server?.close();
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  test('bundles pdfmake for the browser and renders the report off the main thread', async () => {
    test.setTimeout(120_000);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => 'makeReport' in window);
    const result = (await page.evaluate((unit) => (window as unknown as { makeReport: (u: string) => Promise<unknown> }).makeReport(unit), 'mmol/L')) as Result;
    if (!result.ok) throw new Error(result.error);
    const bytes = new Uint8Array(Object.values(result.bytes));
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = pdfText(writeTemp(bytes)).replace(/[ \t]+/g, ' ');
    expect(text).toContain('Asha Verma');
    expect(text).toContain('8.3 mmol/L');
    expect(text).toMatch(/Page 1 of \d/);
    expect(result.progress).toBeGreaterThan(0); // onProgress reached the worker
    await page.close();
  });

  test('renders an Arabic report in the browser build: the Arabic font fetched, lines right to left', async () => {
    test.setTimeout(120_000);
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => 'makeReport' in window);
    const result = (await page.evaluate(() =>
      (window as unknown as { makeReport: (u: string, l: string) => Promise<unknown> }).makeReport('mg/dL', 'ar'),
    )) as Result;
    if (!result.ok) throw new Error(result.error);
    const file = writeTemp(new Uint8Array(Object.values(result.bytes)), 'report-ar.pdf');
    expect(execFileSync('pdffonts', [file], { encoding: 'utf8' })).toMatch(/NotoSansArabic-Regular/);
    const text = pdfText(file).replace(/[ \t]+/g, ' ');
    // poppler puts right-to-left lines back in logical order: right only if the words were laid out right to left.
    expect(text).toContain('متوسط السكر');
    expect(text).toContain('المريض');
    await page.close();
  });
});
