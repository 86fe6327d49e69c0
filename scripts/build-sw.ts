// Builds dist/sw.js after `vite build` (the "build" script runs it): bundles sw/sw.ts with its
// imports (workbox, sync/outbox.ts, Dexie) into one classic script, then lets workbox-build's
// injectManifest write the precache list of the built app into it.
//
// A classic script (IIFE) rather than an ES module: module service workers are not supported by
// every browser a hospital may have, and a service worker cannot load chunks lazily anyway.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectManifest } from 'workbox-build';
import { build } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'dist');
const swFile = path.join(distDir, 'sw.js');

/** Bigger files are left out of the precache by workbox, which would break the offline start. */
const MAX_PRECACHE_FILE_BYTES = 5 * 1024 * 1024;

export async function buildServiceWorker(): Promise<{ count: number; size: number }> {
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
    globIgnores: ['**/*.map', 'sw.js'],
    // Vite puts a content hash in every file name under assets/, so the URL is the revision.
    dontCacheBustURLsMatching: /^assets\//,
    maximumFileSizeToCacheInBytes: MAX_PRECACHE_FILE_BYTES,
  });
  // A warning means a file of the app is not precached (e.g. too big): the app would then fail
  // offline in a way nobody notices until a ward's Wi-Fi drops. Fail the build instead.
  if (warnings.length > 0) throw new Error(`service worker precache is incomplete:\n${warnings.join('\n')}`);
  return { count, size };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServiceWorker().then(
    ({ count, size }) => process.stdout.write(`dist/sw.js: ${count} files precached (${(size / 1024).toFixed(0)} KiB)\n`),
    (err: unknown) => {
      process.stderr.write(`building the service worker failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
