// c15t set up for this app, the banner on its store, and the bridge from other tabs' changes to
// c15t's store and script loader. Loaded lazily by cookie-consent.tsx.
import { useState } from 'react';
import { getOrCreateConsentRuntime } from './c15t.ts';
import { consentMode, consentOptions, type ConsentSetup } from './consent-config.ts';
import { useConsentStorageSync } from './consent-storage-sync.ts';
import { CookieBanner, type BannerHandOver } from './cookie-banner.tsx';
import { migrateLegacyConsent } from './legacy-consent.ts';
import { consentScripts, toC15tScripts } from './scripts.ts';

export interface ConsentRootProps {
  handOver?: BannerHandOver | undefined;
  setup?: Partial<ConsentSetup>;
}

export default function ConsentRoot({ handOver, setup }: ConsentRootProps) {
  // c15t keeps one client and store per configuration for the page's lifetime: made once. A choice
  // c15t 1.x saved is brought into c15t 2.x's form first, since the store reads it as it is made.
  const [store] = useState(() => {
    migrateLegacyConsent();
    return getOrCreateConsentRuntime(consentOptions({ mode: consentMode(), scripts: toC15tScripts(consentScripts), ...setup })).consentStore;
  });
  useConsentStorageSync();
  return <CookieBanner store={store} handOver={handOver} />;
}
