// The global full-screen loader (docs/requirements.md §2, §9): spinner, a medical icon, three bouncing dots, texts and
// an optional progress bar, above everything (z-index 99999) in the brand colour.
import { useLingui } from '@lingui/react/macro';
import { useEffect, useSyncExternalStore } from 'react';
import { loader, type LoaderState } from '../lib/ui/loader-store.ts';
import { resolveText } from '../lib/ui/ui-text.ts';
import { Icon } from './icon.tsx';

export function useLoaderState(): LoaderState {
  return useSyncExternalStore(loader.subscribe, loader.getSnapshot, loader.getSnapshot);
}

/** Only whether the loader shows: components that need no more re-render only when that changes. */
export function useLoaderVisible(): boolean {
  const visible = () => loader.getSnapshot().isVisible;
  return useSyncExternalStore(loader.subscribe, visible, visible);
}

function useScrollLock(locked: boolean): void {
  useEffect(() => {
    if (!locked) return;
    const root = document.documentElement;
    const previous = root.style.overflow;
    root.style.overflow = 'hidden';
    return () => {
      root.style.overflow = previous;
    };
  }, [locked]);
}

function useEscapeToCancel(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') loader.cancel();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}

/**
 * The root layout makes the page inert while the loader shows, which takes focus away from, say, the
 * submit button that started the work. Give it back afterwards so keyboard and screen-reader users
 * carry on where they were instead of at the top of the document.
 */
function useReturnFocusAfterLoading(): void {
  useEffect(() => {
    let wasVisible = loader.getSnapshot().isVisible;
    let saved: HTMLElement | null = null;
    // A store listener, not an effect on the state: it runs before React applies `inert`.
    return loader.subscribe(() => {
      const visible = loader.getSnapshot().isVisible;
      if (visible === wasVisible) return;
      wasVisible = visible;
      if (visible) {
        saved = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        return;
      }
      const target = saved;
      saved = null;
      // After React has committed the page without `inert`.
      setTimeout(() => {
        const lost = document.activeElement === null || document.activeElement === document.body;
        if (target?.isConnected && lost) target.focus({ preventScroll: true });
      }, 0);
    });
  }, []);
}

export function LoaderOverlay() {
  const state = useLoaderState();
  const { i18n, t } = useLingui();
  useReturnFocusAfterLoading();
  useScrollLock(state.isVisible && state.lockScroll);
  useEscapeToCancel(state.isVisible && state.canCancel);
  const text = resolveText(i18n, state.loadingText);
  const subText = resolveText(i18n, state.subText);
  const progress = Math.round(state.progress);

  // The live region stays in the page while hidden so screen readers announce it when it fills.
  return (
    <div
      className={state.isVisible ? 'loader-overlay' : 'loader-overlay loader-overlay--hidden'}
      style={{ zIndex: state.zIndex }}
      role="status"
      aria-live="polite"
      data-can-cancel={state.canCancel || undefined}
      onClick={state.canCancel ? () => loader.cancel() : undefined}
    >
      {state.isVisible && (
        <div className="loader-card">
          <div className="loader-visual" aria-hidden>
            <span className="loader-spinner" />
            <Icon icon="mdi:medical-bag" className="loader-icon" />
          </div>
          <p className="loader-text">{text}</p>
          <p className="loader-subtext">{subText}</p>
          <span className="loader-dots" aria-hidden>
            <span />
            <span />
            <span />
          </span>
          {state.showProgress && (
            <div className="loader-progress">
              <div className="loader-progress-track" role="progressbar" aria-label={text} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
                <div className="loader-progress-bar" style={{ inlineSize: `${progress}%` }} />
              </div>
              <span className="loader-progress-value" aria-hidden>
                {i18n.number(progress / 100, { style: 'percent' })}
              </span>
            </div>
          )}
          {state.canCancel && <p className="loader-cancel-hint">{t`Tap anywhere or press Escape to cancel`}</p>}
        </div>
      )}
    </div>
  );
}
