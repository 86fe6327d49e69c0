// The code of a patient's pages, fetched (and compiled) ahead of need. Only code: nothing is opened
// or stored here; the session still decides who is logged in before anything is.
import type { AnyRoute, AnyRouter } from '@tanstack/react-router';
import { ensureFullCatalog } from './i18n.ts';
import { loadBundledIcons } from './ui/icons/custom-icons.ts';

/**
 * Fetches the code a patient's page runs first: the database (RxDB, Dexie, the collections) and the
 * chunks of the patient layout and of the page at `path`. Called on a reload of a patient's page
 * while the session is read (main.tsx), and, with `login`, on the login page once the patient starts
 * filling in the form (login-form.tsx): then also the replication's code, the outbox's and the sync
 * controller's (on a reload they start only after the first screen, and their code would compete
 * with it), the rest of the active language's
 * catalog and the icons, which every page past the login waits for (routes/__root.tsx). They then
 * arrive while the patient types, not after the login answers (bench: firstSync10kMs). The login
 * page's first load fetches none of it (tests/e2e/login-route.spec.ts).
 */
export function preloadPatientCode(router: AnyRouter, path = '/app', opts: { login?: boolean } = {}): void {
  // A failure here is the page's own to report when it loads the same code.
  const quietly = (loading: Promise<unknown> | undefined): void => {
    loading?.catch(() => undefined);
  };
  quietly(import('../../sync/storage/database.ts'));
  if (opts.login) {
    quietly(import('../../sync/replication.ts'));
    quietly(import('./sync-mappings.ts'));
    // What the login's answer runs before the replication: the outbox, the push inbox and the
    // parking of another patient's entries (sync/parking.ts), then the sync controller.
    quietly(import('../../sync/outbox.ts'));
    quietly(import('../../sync/parking.ts'));
    quietly(import('../../sync/storage/push-inbox.ts'));
    quietly(import('../../sync/controller.ts'));
    quietly(import('../../sync/drain.ts'));
    quietly(import('../../sync/refusals.ts'));
    // Logged and stood in for inside (English, or the messages' ids); never rejects.
    quietly(ensureFullCatalog());
    quietly(loadBundledIcons());
  }
  for (const id of ['/app', path === '/app' ? '/app/' : path.replace(/\/$/, '')]) {
    const route: AnyRoute | undefined = router.routesById[id];
    if (route) quietly(router.loadRouteChunk(route));
  }
}
