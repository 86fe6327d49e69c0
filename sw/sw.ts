/// <reference lib="webworker" />
// The service worker (docs/architecture.md, issue 3 "Service worker"). It makes the app start without a
// network (precached shell, SPA navigation fallback) and replays the one outbox when the page asks
// or when Background Sync fires. It never caches /api: patient data lives only in the encrypted
// local database, never in Cache Storage. Built by scripts/build-sw.ts (bundled, then workbox-build
// injectManifest writes the precache list into `self.__WB_MANIFEST`).
//
// Messages, page → worker: {type:'skip-waiting'}, {type:'replay'}, {type:'fetch-later', locales}.
// Messages, worker → pages: {type:'replay-done', sent, kept, rejected, unauthorized, failed?}
// (see ReplayDoneMessage in src/lib/pwa.ts; counts only, so no patient value leaves this worker),
// and to the page that asked: {type:'later-ready', missing} (see sw/later.ts).
//
// Push notifications (docs/requirements.md §4, §5; the worker ↔ page messages 'push-received', 'mark medicine
// taken', 'remind later') live in sw/push.ts; it replays the outbox through replay() below.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { drainOutbox, type ReplayDoneMessage } from '../sync/drain.ts';
import { pendingCount } from '../sync/outbox.ts';
import { inBackground } from '../sync/background.ts';
import { registerPushHandlers } from './push.ts';
import { cleanupLater, fetchLater, registerLaterRoute } from './later.ts';

declare const self: ServiceWorkerGlobalScope;

/** Background Sync tag; src/lib/pwa.ts registers it. */
const OUTBOX_SYNC_TAG = 'eddy-outbox';

// The shell: HTML, JS (locale catalogs are JS chunks), CSS, fonts, icons, the manifest. Hashed
// files under assets/ are revisioned by their names; the others by the revision workbox computed.
precacheAndRoute(self.__WB_MANIFEST);
// Caches of older Workbox precache formats would otherwise stay on the device forever.
cleanupOutdatedCaches();

// Every in-app URL is a client-side route, so a navigation offline gets the precached index.html.
// /api is excluded: a navigation there (e.g. an opened link) must reach the server or fail.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api(?:\/|$)/] }));

// The PDF engine and its fonts: not precached, fetched after login (sw/later.ts).
registerLaterRoute();

// No route matches /api/*: those requests go straight to the network and nothing is stored.

self.addEventListener('activate', (event) => {
  // Take control of pages that were opened before this worker existed (first install), so the
  // very first visit is already protected for offline use. An older version's engine and fonts go.
  event.waitUntil(Promise.all([self.clients.claim(), cleanupLater().catch(() => undefined)]));
});

async function tellPages(message: ReplayDoneMessage): Promise<void> {
  const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of pages) page.postMessage(message);
}

/**
 * Sends what the outbox holds and reports the outcome to every open page. Returns whether
 * entries are left that a later attempt could deliver (offline, 5xx), so Background Sync can retry.
 */
async function replay(): Promise<boolean> {
  let message: ReplayDoneMessage;
  try {
    const result = await drainOutbox();
    message = { type: 'replay-done', sent: result.sent.length, kept: result.kept, rejected: result.rejected.length, unauthorized: result.unauthorized };
  } catch {
    // E.g. IndexedDB unavailable or an entry that no longer decrypts: the page's own replication
    // will try again; it only needs to know nothing was sent.
    message = { type: 'replay-done', sent: 0, kept: await pendingCount().catch(() => 0), rejected: 0, unauthorized: false, failed: true };
  }
  await tellPages(message);
  // After a 401 retrying is pointless until the user logs in again (the page then asks anew).
  return message.kept > 0 && !message.unauthorized;
}

registerPushHandlers(replay);

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'skip-waiting') {
    // The only place a new version skips waiting: the page decides when to switch (and then
    // reloads once), instead of a new worker taking over pages that run the old code mid-use.
    inBackground(self.skipWaiting(), 'skipWaiting failed');
  } else if (type === 'replay') {
    event.waitUntil(replay());
  } else if (type === 'fetch-later') {
    const locales = (event.data as { locales?: unknown }).locales;
    const list = Array.isArray(locales) ? locales.filter((l): l is string => typeof l === 'string') : [];
    const source = event.source;
    event.waitUntil(
      fetchLater(list).then((missing) => {
        if (source) source.postMessage({ type: 'later-ready', missing });
      }),
    );
  }
});

// Background Sync is not in TypeScript's webworker lib.
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== OUTBOX_SYNC_TAG) return;
  sync.waitUntil(
    replay().then((retry) => {
      // A rejected sync is rescheduled by the browser (with back-off): that is how writes left
      // behind by a flaky connection still leave after the page has been closed.
      if (retry) throw new Error('outbox not empty; retry later');
    }),
  );
});
