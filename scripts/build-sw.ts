// Builds dist/sw.js after `vite build` (the "build" script runs it): bundles sw/sw.ts with its
// imports (workbox, sync/outbox.ts, Dexie) into one classic script, then lets workbox-build's
// injectManifest write the precache list of the built app into it.
//
// The precache is what the first offline start needs. The PDF engine (pdfmake), its Roboto font
// file (vfs_fonts) and the Noto fonts for Arabic and Hindi (about 2.6 MB of the 4 MB) are left out:
// their URLs go into `self.__EDDY_LATER`, and the worker fetches them after login (sw/sw.ts,
// 'fetch-later'; fonts only for the languages in use).
//
// A classic script (IIFE) rather than an ES module: module service workers are not supported by
// every browser a hospital may have, and a service worker cannot load chunks lazily anyway.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFile, writeFile } from 'node:fs/promises';
import { glob } from 'node:fs/promises';
import { injectManifest } from 'workbox-build';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'dist');
const swFile = path.join(distDir, 'sw.js');

/** Bigger files are left out of the precache by workbox, which would break the offline start. */
const MAX_PRECACHE_FILE_BYTES = 5 * 1024 * 1024;

/** Left out of the precache, fetched after login (relative to dist/); each must match a file. */
export const LATER_PATTERNS = ['assets/pdfmake-*.js', 'assets/vfs_fonts-*.js', 'assets/*.ttf', 'assets/noto-sans-devanagari-*.woff2'] as const;
/** The token in sw/sw.ts that the list of those files' URLs replaces. */
export const LATER_TOKEN = 'self.__EDDY_LATER';

/** The files each of LATER_PATTERNS matches in dist/, as URLs (`/assets/…`); a pattern that matches nothing fails. */
async function laterFiles(): Promise<string[]> {
  const urls: string[] = [];
  for (const pattern of LATER_PATTERNS) {
    const matched: string[] = [];
    for await (const file of glob(pattern, { cwd: distDir })) matched.push(file.split(path.sep).join('/'));
    if (matched.length === 0) throw new Error(`no file in dist/ matches ${pattern} (left out of the precache, fetched after login)`);
    urls.push(...matched.sort().map((f) => `/${f}`));
  }
  return urls;
}

export async function buildServiceWorker(): Promise<{ count: number; size: number; later: number }> {
  await build({
    // Not the app's vite.config.ts: its plugins (router, React, Lingui) have nothing to do here.
    configFile: false,
    root,
    logLevel: 'warn',
    // Workbox guards its development-only checks with process.env.NODE_ENV; drop them.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      outDir: distDir,
      emptyOutDir: false, // dist/ already holds the app
      target: 'es2022',
      sourcemap: true,
      minify: true,
      copyPublicDir: false,
      lib: {
        entry: path.join(root, 'sw', 'sw.ts'),
        formats: ['iife'],
        name: 'eddySw',
        fileName: () => 'sw.js',
      },
    },
  });

  const { count, size, warnings } = await injectManifest({
    swSrc: swFile,
    swDest: swFile,
    globDirectory: distDir,
    // The shell: pages, scripts (the locale catalogs are JS chunks), styles, the manifest, icons
    // and fonts; source maps are for developers and stay on the server.
    globPatterns: ['**/*.{html,js,css,webmanifest,png,svg,ico,woff2,ttf}'],
    // The PDF engine and its fonts come after login (LATER_PATTERNS).
    globIgnores: ['**/*.map', 'sw.js', ...LATER_PATTERNS],
    // Vite puts a content hash in every file name under assets/, so the URL is the revision.
    dontCacheBustURLsMatching: /^assets\//,
    maximumFileSizeToCacheInBytes: MAX_PRECACHE_FILE_BYTES,
  });
  // A warning means a file of the app is not precached (e.g. too big): the app would then fail
  // offline in a way nobody notices until a ward's Wi-Fi drops. Fail the build instead.
  if (warnings.length > 0) throw new Error(`service worker precache is incomplete:\n${warnings.join('\n')}`);

  // The files left out, written where sw/sw.ts reads them (exactly one token, or the build fails).
  const later = await laterFiles();
  const source = await readFile(swFile, 'utf8');
  const at = source.split(LATER_TOKEN).length - 1;
  if (at !== 1) throw new Error(`dist/sw.js should hold ${LATER_TOKEN} exactly once, found ${at}`);
  await writeFile(
    swFile,
    source.replace(LATER_TOKEN, () => JSON.stringify(later)),
  );
  return { count, size, later: later.length };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServiceWorker().then(
    ({ count, size, later }) => process.stdout.write(`dist/sw.js: ${count} files precached (${(size / 1024).toFixed(0)} KiB); ${later} fetched after login\n`),
    (err: unknown) => {
      process.stderr.write(`building the service worker failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
