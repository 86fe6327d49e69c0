/// <reference lib="webworker" />
// The files the precache leaves out (scripts/build-sw.ts, LATER_PATTERNS): the PDF engine
// (pdfmake), its Roboto font file (vfs_fonts), the Noto fonts for Arabic and Hindi (the PDF's, and the screens' Devanagari woff2). A first visit
// does not download them; once someone is logged in and online, the page sends {type:'fetch-later',
// locales} (src/lib/fetch-later.ts) and this worker fetches into the 'eddy-later' cache what is not
// there yet: the engine and Roboto always, a script's fonts only for a locale that needs them. The
// same files are then served cache-first, so a PDF is made offline on a device that was online once
// after logging in. Their names carry a content hash: the URL is the revision.
import { CacheFirst } from 'workbox-strategies';
import { registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __EDDY_LATER: string[] };

export const LATER_CACHE = 'eddy-later';

/** How long one later file may take to arrive (the PDF engine is the largest, about 1 MB). */
const LATER_FETCH_TIMEOUT_MS = 60_000;

/** URLs like /assets/pdfmake-HASH.js, written into the built sw.js by scripts/build-sw.ts. */
const LATER: readonly string[] = self.__EDDY_LATER;

/** The script fonts a locale needs, in its PDF and (Hindi) on screen (file names as Vite emits them). */
const FONTS_OF: Record<string, RegExp> = {
  ar: /\/NotoSansArabic_[^/]*\.ttf$/,
  hi: /\/(?:NotoSansDevanagari_[^/]*\.ttf|noto-sans-devanagari-[^/]*\.woff2)$/,
};
const FONT = /\.(?:ttf|woff2)$/;

/** Which of the later files the given locales need: everything but the fonts of other scripts. */
export function laterFor(locales: readonly string[]): string[] {
  const wanted = Object.entries(FONTS_OF)
    .filter(([locale]) => locales.includes(locale))
    .map(([, pattern]) => pattern);
  return LATER.filter((url) => !FONT.test(url) || wanted.some((p) => p.test(url)));
}

export function registerLaterRoute(): void {
  const urls = new Set(LATER);
  registerRoute(({ url, sameOrigin }) => sameOrigin && urls.has(url.pathname), new CacheFirst({ cacheName: LATER_CACHE }));
}

/**
 * Fetches into the cache what the locales need and the cache lacks. Resolves to how many of those
 * files are still not on the device (0: a PDF can be made offline); a failed fetch (offline) only
 * counts, the next start online asks again.
 */
export async function fetchLater(locales: readonly string[]): Promise<number> {
  const cache = await caches.open(LATER_CACHE);
  const results = await Promise.all(
    laterFor(locales).map(async (url) => {
      if (await cache.match(url)) return true;
      try {
        // A connection that hangs (a ward's Wi-Fi) must not hold this worker's event open: a new
        // version cannot take over while an event of the old one is still running.
        const res = await fetch(url, { credentials: 'same-origin', signal: AbortSignal.timeout(LATER_FETCH_TIMEOUT_MS) });
        if (!res.ok) return false;
        await cache.put(url, res);
        return true;
      } catch {
        return false;
      }
    }),
  );
  return results.filter((ok) => !ok).length;
}

/** Deletes what an older version left in the cache (files no longer in the list). */
export async function cleanupLater(): Promise<void> {
  const cache = await caches.open(LATER_CACHE);
  const keep = new Set(LATER);
  for (const request of await cache.keys()) {
    if (!keep.has(new URL(request.url).pathname)) await cache.delete(request);
  }
}
