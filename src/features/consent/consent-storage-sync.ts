// Another tab saved or reset the cookie choice: c15t does not listen for that, so this tab's store is
// brought in line with what storage now holds, and the script registry is re-evaluated (docs/requirements.md §4).
import { useEffect } from 'react';
import { consentTypes, getConsentFromStorage, type ConsentState, type ConsentStoreApi } from './c15t.ts';
import { C15T_STORAGE_KEY, CONSENT_STORE_NAMESPACE } from './consent-config.ts';
import { migrateLegacyConsent } from './legacy-consent.ts';

declare global {
  interface Window {
    /** c15t's store, which it puts on the page under the namespace it is given (consent-config.ts). */
    [CONSENT_STORE_NAMESPACE]?: ConsentStoreApi;
  }
}

export function consentStore(): ConsentStoreApi | undefined {
  return window[CONSENT_STORE_NAMESPACE];
}

export function syncFromStorage(store: ConsentStoreApi): void {
  // A tab still running a c15t 1.x build may have written it.
  migrateLegacyConsent();
  const stored = getConsentFromStorage({ storageKey: C15T_STORAGE_KEY });
  if (stored?.consents && stored.consentInfo) {
    store.setState({ consents: stored.consents, selectedConsents: stored.consents, consentInfo: stored.consentInfo, activeUI: 'none' });
  } else {
    // Reset elsewhere: no saved consent any more, so this tab asks again.
    const defaults = Object.fromEntries(consentTypes.map((c) => [c.name, c.defaultValue])) as ConsentState;
    store.setState({ consents: defaults, selectedConsents: defaults, consentInfo: null, activeUI: 'banner' });
  }
  store.getState().updateScripts();
}

export function useConsentStorageSync(): void {
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      // key null: the other tab cleared all of local storage.
      if (event.key !== C15T_STORAGE_KEY && event.key !== null) return;
      const store = consentStore();
      if (store) syncFromStorage(store);
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
}
