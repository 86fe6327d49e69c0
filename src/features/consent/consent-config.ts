// How the cookie-consent manager (c15t 2.x, docs/requirements.md §7) is set up. c15t's own client already behaves as
// docs/requirements.md §7–§9 ask (X-Request-ID on every call, credentials included, 3 retries from 100 ms doubling on
// 500/502/503/504 and network errors but not on 400/401/403/404, fallback to offline mode, failed
// saves queued in local storage and resubmitted 2 s after the next load in 3 rounds), so this file
// only chooses the mode, the purposes, the storage key and the scripts, and switches off what the
// app does not want from it. In remote mode c15t 2.x calls GET /init and POST /subjects under the
// base path (c15t 1.x called /show-consent-banner and /consent/set); server/routes/consent.ts
// serves both.
import type { C15tCallbacks, C15tScript, ConsentManagerOptions, Purpose } from './c15t.ts';

export type ConsentMode = 'offline' | 'remote';

/** The app's own copy of the choice (docs/requirements.md §3 consent record, §9 storage key). */
export const CONSENT_RECORD_KEY = 'eddy-cookie-consent';
/** Where c15t keeps its state, in local storage and a cookie of the same name (docs/requirements.md §9). */
export const C15T_STORAGE_KEY = 'c15t-consent';
/** c15t's queue of saves that did not reach the server (remote mode). */
export const C15T_PENDING_KEY = 'c15t-pending-consent-submissions';
/** c15t's default base path; the server implements it (server/routes/consent.ts). */
export const CONSENT_BACKEND_URL = '/api/c15t';
/** Where c15t puts its store for code outside React (its `namespace` option). */
export const CONSENT_STORE_NAMESPACE = 'eddyConsentStore';

/** The banner's two choices (docs/requirements.md §2) and the c15t purposes they stand for. */
export const PURPOSE_OF = { analytics: 'measurement', functional: 'functionality' } as const satisfies Record<string, Purpose>;
export type ConsentCategory = keyof typeof PURPOSE_OF;

/** Offered on the banner: essential (always on) and the two toggles; no marketing or experience. */
export const OFFERED_PURPOSES: Purpose[] = ['necessary', PURPOSE_OF.analytics, PURPOSE_OF.functional];

/**
 * Offline unless the app was built with VITE_CONSENT_MODE=remote: then choices are also recorded on
 * the server as proof of consent. A build-time setting because the service worker serves the
 * precached app shell, so a runtime switch would reach installed apps only at their next update.
 */
export function consentMode(value: string | undefined = import.meta.env['VITE_CONSENT_MODE']): ConsentMode {
  return value === 'remote' ? 'remote' : 'offline';
}

export interface ConsentSetup {
  mode: ConsentMode;
  scripts: C15tScript[];
  callbacks?: C15tCallbacks;
}

export function consentOptions({ mode, scripts, callbacks = {} }: ConsentSetup): ConsentManagerOptions {
  const common: Omit<ConsentManagerOptions, 'mode'> = {
    storageConfig: { storageKey: C15T_STORAGE_KEY },
    consentCategories: OFFERED_PURPOSES,
    scripts,
    callbacks,
    // c15t 2.x reloads the page when a granted purpose is withdrawn, to be rid of scripts already
    // run. The banner only asks while nothing is saved, and the script registry removes a script
    // whose consent is withdrawn (docs/requirements.md §4), so a choice never reloads the page.
    reloadOnConsentRevoked: false,
    // c15t would otherwise watch every iframe for a consent category; the app loads third-party code
    // only through its script registry. (c15t 2.x's network blocker is off unless configured.)
    store: { namespace: CONSENT_STORE_NAMESPACE, iframeBlockerConfig: { disableAutomaticBlocking: true } },
  };
  return mode === 'remote' ? { ...common, mode: 'hosted', backendURL: CONSENT_BACKEND_URL } : { ...common, mode: 'offline' };
}
