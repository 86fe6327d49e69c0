// The in-page offer to install the app (docs/requirements.md §2, §4, §9). src/lib/pwa.ts keeps the browser's
// install prompt; browsers refuse to show it without a tap (its automatic showing after 2 s then
// fails and the prompt is kept), so this banner gives the patient that tap, 2 s after the offer,
// at the end of the page's content: it covers nothing and moves nothing above it (issue 50). "Don't show again" is remembered in local storage for good.
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { inBackground } from '../../sync/background.ts';
import { getPwa, INSTALL_PROMPT_DELAY_MS, type InstallState, type Pwa } from '../lib/pwa.ts';
import { toast } from '../lib/ui/toast-store.ts';
import { Icon } from './icon.tsx';
import './install-banner.css';

export type InstallControls = Pick<Pwa, 'install' | 'promptInstall' | 'hideInstallPromptPermanently'>;

export function useInstallState(pwa: InstallControls = getPwa()): InstallState {
  return useSyncExternalStore(pwa.install.subscribe, pwa.install.get, pwa.install.get);
}

/** Whether the page runs as the installed app (its own window, not a browser tab). */
export function isRunningInstalled(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || (typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches);
}

// The installed notice is given once per installation, even if the layout mounts again.
const announced = new WeakSet<InstallControls>();

export function InstallBanner({ pwa = getPwa(), delayMs = INSTALL_PROMPT_DELAY_MS }: { pwa?: InstallControls; delayMs?: number }) {
  const { t } = useLingui();
  const state = useInstallState(pwa);
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(false);
  const firstOffered = useRef<number | undefined>(undefined);
  const titleId = useId();

  useEffect(() => {
    if (!state.available || state.hidden || due) return undefined;
    // Counted from the first offer: the failed automatic prompt briefly withdraws it, and that
    // must not restart the wait.
    firstOffered.current ??= Date.now();
    const timer = setTimeout(() => setDue(true), Math.max(0, delayMs - (Date.now() - firstOffered.current)));
    return () => clearTimeout(timer);
  }, [state.available, state.hidden, due, delayMs]);

  useEffect(() => {
    if (!state.installed || announced.has(pwa)) return;
    announced.add(pwa);
    toast({ type: 'success', text: t`Eddy was installed. You can open it from your home screen.` });
  }, [state.installed, pwa, t]);

  const visible = due && state.available && !state.hidden && !closed;
  return (
    <div className="install-banner-region" aria-live="polite">
      {visible && (
        <aside className="install-banner" aria-labelledby={titleId}>
          <Icon icon="mdi:cellphone-arrow-down" className="install-banner-icon" />
          <div className="install-banner-body">
            <p id={titleId} className="install-banner-title">
              <Trans>Install Eddy on this device</Trans>
            </p>
            <p className="install-banner-text">
              <Trans>Open it from your home screen like any other app, also without internet.</Trans>
            </p>
            <div className="install-banner-actions">
              <button type="button" className="button button--small" onClick={() => inBackground(pwa.promptInstall(), 'Install prompt could not be shown')}>
                <Trans>Install</Trans>
              </button>
              <button type="button" className="button button--secondary button--small" onClick={() => pwa.hideInstallPromptPermanently()}>
                <Trans>Don't show again</Trans>
              </button>
            </div>
          </div>
          <button type="button" className="icon-button install-banner-close" aria-label={t`Close`} onClick={() => setClosed(true)}>
            <Icon icon="mdi:close" />
          </button>
        </aside>
      )}
    </div>
  );
}
