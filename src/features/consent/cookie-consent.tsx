// The app shell's cookie consent (docs/requirements.md §2), loaded after the first render so the page never waits
// for it. What it needs is decided once per page load:
// - remote mode, or scripts that wait for consent: c15t starts at once (it asks the server whether
//   to show the banner, resubmits queued saves, loads the allowed scripts);
// - otherwise, with no saved choice: the banner shows, and c15t loads when the person answers;
// - otherwise nothing at all.
// If the consent manager cannot start (its code does not load, or it throws while setting up), the
// app goes on without it and says so in the log (docs/requirements.md §8).
import { Component, useEffect, useRef, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { log } from '../../../sync/log.ts';
import type { SaveType } from './c15t.ts';
import { consentMode, type ConsentMode } from './consent-config.ts';
import { hasSavedConsent, type ConsentChoice } from './consent-record.ts';
import type { ConsentRootProps } from './consent-root.tsx';
import type { DeferredBanner } from './deferred-banner.tsx';
import { consentScripts, type ConsentScript } from './scripts.ts';

// eslint-disable-next-line lingui/no-unlocalized-strings -- a log message, not shown to anyone
export const CONSENT_UNAVAILABLE = 'Cookie consent manager not available';

type Root = ComponentType<ConsentRootProps>;
type Deferred = typeof DeferredBanner;

export interface CookieConsentProps {
  mode?: ConsentMode;
  scripts?: readonly ConsentScript[];
  loadRoot?: () => Promise<{ default: Root }>;
  loadBanner?: () => Promise<{ DeferredBanner: Deferred }>;
}

export function CookieConsent({
  mode = consentMode(),
  scripts = consentScripts,
  loadRoot = () => import('./consent-root.tsx'),
  loadBanner = () => import('./deferred-banner.tsx'),
}: CookieConsentProps) {
  const [plan] = useState(() => (mode === 'remote' || scripts.length > 0 ? 'manager' : hasSavedConsent() === false ? 'banner' : 'none'));
  const [root, setRoot] = useState<{ Root: Root; handOver?: ConsentRootProps['handOver'] } | null>(null);
  const [Banner, setBanner] = useState<Deferred | null>(null);
  const rootLoad = useRef<Promise<Root> | null>(null);

  // One load shared by the preload and the press; a failed one may be tried again.
  const getRoot = () => {
    if (!rootLoad.current) {
      const loading = loadRoot().then((m) => m.default);
      loading.catch(() => {
        if (rootLoad.current === loading) rootLoad.current = null;
      });
      rootLoad.current = loading;
    }
    return rootLoad.current;
  };

  useEffect(() => {
    let live = true;
    if (plan === 'manager') {
      getRoot().then(
        (Root) => live && setRoot({ Root }),
        (err: unknown) => log.error(CONSENT_UNAVAILABLE, err),
      );
    } else if (plan === 'banner') {
      loadBanner().then(
        (m) => live && setBanner(() => m.DeferredBanner),
        (err: unknown) => log.error(CONSENT_UNAVAILABLE, err),
      );
    }
    return () => {
      live = false;
    };
    // The loaders are fixed for the page's lifetime: only the plan decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- getRoot and loadBanner are props that never change
  }, [plan]);

  if (root) {
    return (
      <ConsentBoundary>
        <root.Root handOver={root.handOver} />
      </ConsentBoundary>
    );
  }
  if (!Banner) return null;
  const save = async (selected: ConsentChoice, type: SaveType) => {
    try {
      setRoot({ Root: await getRoot(), handOver: { selected, save: type } });
    } catch (err) {
      // Nothing was saved: the banner stays (docs/requirements.md §4), and the next press tries again.
      log.error(CONSENT_UNAVAILABLE, err);
    }
  };
  return <Banner onInteract={() => void getRoot().catch(() => undefined)} onSave={save} />;
}

class ConsentBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    log.error(CONSENT_UNAVAILABLE, { error, componentStack: info.componentStack });
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
