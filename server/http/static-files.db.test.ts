// The web app's files as a slow ward connection gets them: the build's compressed copies
// (scripts/compress-dist.ts), hashed assets cached for a year, the page and the worker never stale.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressDist } from '../../scripts/compress-dist.ts';
import { createHarness, type Harness } from '../testing/harness.ts';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE, cacheControlFor } from './static-files.ts';

const script = `export const greeting = ${JSON.stringify('hello ward '.repeat(400))};\n`;
const page = `<!doctype html><html><head><title>Eddy</title></head><body>${'<p>offline first</p>'.repeat(100)}</body></html>`;
const worker = `self.addEventListener('fetch', () => {});\n${'// precache list\n'.repeat(200)}`;
const icon = Buffer.alloc(2048, 7); // a PNG's bytes are compressed already: sent as they are

let dir: string;
let h: Harness;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'eddy-dist-'));
  await mkdir(path.join(dir, 'assets'));
  await mkdir(path.join(dir, 'icons'));
  await writeFile(path.join(dir, 'index.html'), page);
  await writeFile(path.join(dir, 'sw.js'), worker);
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js'), script);
  await writeFile(path.join(dir, 'assets', 'tiny-Zz99.js'), 'export {};\n');
  // A source map a build may leave beside its script: the full sources, never served.
  await writeFile(path.join(dir, 'assets', 'index-Ab12Cd34.js.map'), '{"version":3,"sources":["../src/main.tsx"],"sourcesContent":["secret"]}');
  await writeFile(path.join(dir, 'icons', 'icon-192.png'), icon);
  // A copy left by an earlier build must not survive the next one.
  await writeFile(path.join(dir, 'assets', 'gone-Old1.js.br'), 'stale');
  await compressDist(dir);
  h = await createHarness({}, { webRoot: dir });
});

afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  h.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('compressDist', () => {
  it('writes brotli and gzip copies of text files worth compressing, and nothing else', async () => {
    const all = (await readdir(dir, { recursive: true })).map((f) => f.split(path.sep).join('/')).sort();
    expect(all).toContain('assets/index-Ab12Cd34.js.br');
    expect(all).toContain('assets/index-Ab12Cd34.js.gz');
    expect(all).toContain('index.html.br');
    expect(all).toContain('sw.js.gz');
    expect(all).not.toContain('assets/tiny-Zz99.js.br'); // under 1 KiB
    expect(all).not.toContain('icons/icon-192.png.br');
    expect(all).not.toContain('assets/gone-Old1.js.br');
  });
});

describe('static files', () => {
  it('sends the brotli copy to a browser that accepts it, the same bytes once decoded', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['vary']).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(script);
  });

  it('sends gzip where brotli is not accepted, and the file itself where neither is', async () => {
    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-Ab12Cd34.js', '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('caches hashed assets for a year as immutable, compressed or not', async () => {
    expect((await get('/assets/index-Ab12Cd34.js', 'br')).headers['cache-control']).toBe(CACHE_IMMUTABLE);
    expect((await get('/assets/tiny-Zz99.js', 'br')).headers['cache-control']).toBe(CACHE_IMMUTABLE);
  });

  it('has the page, the service worker and the icons revalidated on every use', async () => {
    for (const url of ['/', '/index.html', '/sw.js', '/icons/icon-192.png']) {
      const res = await get(url, 'br, gzip');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe(CACHE_REVALIDATE);
    }
    const sw = await get('/sw.js', 'br');
    expect(sw.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(sw.rawPayload).toString()).toBe(worker);
  });

  it('answers a route of the app with the page, compressed and never stale', async () => {
    const res = await get('/app/reports', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(CACHE_REVALIDATE);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(page);
  });

  it("answers 404 for what is not a page of the app: a dotfile, a scanner's probe, an unknown page (issue 48)", async () => {
    for (const url of ['/.env', '/.git/config', '/wp-admin', '/backup', '/app/.env']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.body, url).not.toContain(page);
    }
    // A mistyped page of the app: the app's page, which shows its own "page not found".
    for (const url of ['/app/nothing-here', '/admin/nothing-here']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.body, url).toBe(page);
    }
    for (const url of ['/', '/app', '/app/', '/admin/manage', '/privacy']) expect((await get(url)).statusCode, url).toBe(200);
  });

  it('never serves a source map', async () => {
    for (const enc of [undefined, 'br, gzip']) {
      const res = await get('/assets/index-Ab12Cd34.js.map', enc);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('sourcesContent');
    }
  });

  it('does not serve the compressed copies under names of their own', async () => {
    expect((await get('/assets/index-Ab12Cd34.js.br')).statusCode).toBe(404);
  });

  it('decides by the path under the root', () => {
    expect(cacheControlFor('assets/x-1.js')).toBe(CACHE_IMMUTABLE);
    expect(cacheControlFor('assets')).toBe(CACHE_REVALIDATE);
    expect(cacheControlFor('sw.js')).toBe(CACHE_REVALIDATE);
    expect(cacheControlFor('icons/a.png')).toBe(CACHE_REVALIDATE);
  });
});
