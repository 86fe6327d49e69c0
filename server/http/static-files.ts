// The built web app (dist/), served for a slow ward connection:
// - the brotli or gzip copy written at build time (scripts/compress-dist.ts) to a browser that
//   accepts it, never compressed per request;
// - files under /assets/ carry a content hash in their name (Vite), so a URL's content never
//   changes: cached for a year as immutable, never asked for again;
// - everything else (index.html, the service worker, the manifest, the icons) is revalidated on
//   every use, so a new version is never hidden behind a stale page or worker.
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'no-cache';

/** The Cache-Control of a file of the web app, by its path relative to the app's root. */
export function cacheControlFor(relativePath: string): string {
  const parts = relativePath.split(/[\\/]/);
  return parts.length > 1 && parts[0] === 'assets' ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

export async function registerStaticFiles(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    preCompressed: true,
    // The copies are sent in place of their original, not as files of their own. Source maps (the
    // full sources) stay on the build machine: never served (issue 48).
    globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
    setHeaders: (reply, filePath) => {
      // filePath may be the .br/.gz copy: its name without the suffix decides.
      const original = filePath.replace(/\.(?:br|gz)$/, '');
      reply.header('cache-control', cacheControlFor(path.relative(root, original)));
    },
  });
}
