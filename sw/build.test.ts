// Checks the built service worker (dist/sw.js, made by `npm run build`): its precache list must hold
// the shell the app needs to start offline, and nothing that must not be stored on the device; the
// PDF engine and its fonts are left out of it and listed for after login (sw/later.ts).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const swFile = path.join(dist, 'sw.js');
const built = existsSync(swFile) && existsSync(path.join(dist, 'index.html'));

interface Entry {
  url: string;
  revision: string | null;
}

/** injectManifest replaces `self.__WB_MANIFEST` with a JSON array of {revision, url}. */
function precacheList(source: string): Entry[] {
  const match = /\[\{"revision":[^\]]*\]/.exec(source);
  if (!match) throw new Error('no precache manifest in dist/sw.js (was injectManifest run?)');
  return JSON.parse(match[0]) as Entry[];
}

/** scripts/build-sw.ts replaces `self.__EDDY_LATER` with a JSON array of URLs (/assets/…). */
function laterList(source: string): string[] {
  const match = /\["\/assets\/pdfmake-[^\]]*\]/.exec(source);
  if (!match) throw new Error('no list of files for after login in dist/sw.js (was scripts/build-sw.ts run?)');
  return JSON.parse(match[0]) as string[];
}

/** The PDF engine, its Roboto file and the script fonts: fetched after login, not precached. */
const LATER_FILE = /^(?:pdfmake-[\w-]+\.js|vfs_fonts-[\w-]+\.js|[\w-]+\.ttf|noto-sans-devanagari-[\w-]+\.woff2)$/;

describe.skipIf(!built)(`the built service worker${built ? '' : ' (skipped: dist/sw.js or dist/index.html is missing; run `npm run build`)'}`, () => {
  const source = built ? readFileSync(swFile, 'utf8') : '';
  const entries = built ? precacheList(source) : [];
  const urls = entries.map((e) => e.url);
  const later = built ? laterList(source) : [];

  it('has its injection point filled in exactly once', () => {
    expect(source).not.toContain('__WB_MANIFEST');
    expect(source.match(/\[\{"revision":/g)).toHaveLength(1);
  });

  it('precaches index.html and the entry script and styles index.html loads', () => {
    expect(urls).toContain('index.html');
    const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
    const referenced = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(referenced.some((u) => u?.endsWith('.js'))).toBe(true);
    for (const url of referenced) expect(urls).toContain(url);
  });

  it('precaches every script, style, font and the locale catalogs under assets/, but the PDF engine and its fonts', () => {
    const assets = readdirSync(path.join(dist, 'assets')).filter((f) => /\.(?:js|css|woff2)$/.test(f) && !LATER_FILE.test(f));
    for (const file of assets) expect(urls).toContain(`assets/${file}`);
    // The PDF worker itself starts offline; what it loads comes after login.
    expect(urls.some((u) => /^assets\/pdf\.worker-[\w-]+\.js$/.test(u))).toBe(true);
    // Lingui's compiled catalogs are separate chunks, one per locale.
    expect(urls.filter((u) => /^assets\/messages-[\w-]+\.js$/.test(u)).length).toBeGreaterThanOrEqual(2);
  });

  it('precaches the manifest and the icons it names', () => {
    expect(urls).toContain('manifest.webmanifest');
    const manifest = JSON.parse(readFileSync(path.join(dist, 'manifest.webmanifest'), 'utf8')) as { icons: Array<{ src: string }> };
    for (const icon of manifest.icons) expect(urls).toContain(icon.src.replace(/^\//, ''));
  });

  it('holds no source maps, no API path and not itself', () => {
    expect(urls.filter((u) => u.endsWith('.map'))).toEqual([]);
    expect(urls.filter((u) => /^\/?api(?:\/|$)/.test(u))).toEqual([]);
    expect(urls).not.toContain('sw.js');
  });

  it('leaves the PDF engine, its Roboto file and the script fonts out, and lists exactly them for after login', () => {
    expect(source).not.toContain('__EDDY_LATER');
    const files = readdirSync(path.join(dist, 'assets')).filter((f) => LATER_FILE.test(f));
    expect(files.filter((f) => f.startsWith('pdfmake-'))).toHaveLength(1);
    expect(files.filter((f) => f.startsWith('vfs_fonts-'))).toHaveLength(1);
    expect(files.filter((f) => /^NotoSansArabic_.*\.ttf$/.test(f))).toHaveLength(2);
    expect(files.filter((f) => /^NotoSansDevanagari_.*\.ttf$/.test(f))).toHaveLength(2);
    // The screens' Devanagari font (src/styles.css), regular and bold.
    expect(files.filter((f) => /^noto-sans-devanagari-devanagari-(?:400|700)-normal-[\w-]+\.woff2$/.test(f))).toHaveLength(2);
    expect([...later].sort()).toEqual(files.map((f) => `/assets/${f}`).sort());
    for (const file of files) expect(urls).not.toContain(`assets/${file}`);
    expect(urls.filter((u) => LATER_FILE.test(u.replace(/^assets\//, '')))).toEqual([]);
  });

  it('has the precached PDF worker load the engine only with import(), so a device without it gets a clear message', () => {
    const worker = readdirSync(path.join(dist, 'assets')).find((f) => /^pdf\.worker-[\w-]+\.js$/.test(f));
    expect(worker).toBeDefined();
    const code = readFileSync(path.join(dist, 'assets', worker ?? ''), 'utf8');
    // A static import of a file that is not on the device would stop the worker from starting at all.
    expect(code).not.toMatch(/(?:^|[;}\s])import\s*[^(]*?["'`][^"'`]*(?:pdfmake|vfs_fonts)-[\w-]+\.js["'`]/);
    expect(code).toMatch(/import\(\s*["'`][^"'`]*pdfmake-[\w-]+\.js["'`]\s*\)/);
  });

  it('revisions every file whose name carries no hash', () => {
    for (const e of entries) if (!e.url.startsWith('assets/')) expect(e.revision, e.url).toMatch(/^[0-9a-f]{32}$/);
  });
});
