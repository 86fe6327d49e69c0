// c15t's provider set up for this app, the banner on its store, and the bridge from other tabs'
// changes to c15t's store and script loader. Loaded lazily by cookie-consent.tsx.
import { useState } from 'react';
import { ConsentManagerProvider } from './c15t.ts';
import { consentMode, consentOptions, type ConsentSetup } from './consent-config.ts';
import { useConsentStorageSync } from './consent-storage-sync.ts';
import { CookieBanner, type BannerHandOver } from './cookie-banner.tsx';
import { consentScripts, toC15tScripts } from './scripts.ts';

export interface ConsentRootProps {
  handOver?: BannerHandOver | undefined;
  setup?: Partial<ConsentSetup>;
}

export default function ConsentRoot({ handOver, setup }: ConsentRootProps) {
  // c15t keeps one store per configuration for the page's lifetime: the options are made once.
  const [options] = useState(() => consentOptions({ mode: consentMode(), scripts: toC15tScripts(consentScripts), ...setup }));
  return (
    <ConsentManagerProvider options={options}>
      <StorageSync />
      <CookieBanner handOver={handOver} />
    </ConsentManagerProvider>
  );
}

function StorageSync() {
  useConsentStorageSync();
  return null;
}
