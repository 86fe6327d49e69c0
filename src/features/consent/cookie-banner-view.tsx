// The cookie banner as people see it (docs/requirements.md §2): a bottom sheet with the heading, the explanation, the
// Privacy Policy link, Essential "Always Active", the Analytics and Functional switches and the three
// buttons, all disabled while a choice is being saved and the pressed one reading "Saving...".
// It only shows; deferred-banner.tsx and cookie-banner.tsx decide what a press does.
import { Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, type RefObject } from 'react';
import type { SaveType } from './c15t.ts';
import type { ConsentCategory } from './consent-config.ts';
import type { ConsentChoice } from './consent-record.ts';
import './cookie-banner.css';

export interface CookieBannerViewProps {
  selected: ConsentChoice;
  saving: SaveType | null;
  onToggle(category: ConsentCategory, value: boolean): void;
  onSave(type: SaveType): void;
  /** The first pointer, key or focus inside the sheet: a hint that a choice is coming. */
  onInteract?(): void;
}

export function CookieBannerView({ selected, saving, onToggle, onSave, onInteract }: CookieBannerViewProps) {
  const { t } = useLingui();
  const titleId = useId();
  const textId = useId();
  const sheet = useRef<HTMLElement>(null);
  useSheetSize(sheet);
  const busy = saving !== null;
  const label = (type: SaveType, text: string) => (saving === type ? t`Saving...` : text);

  const toggle = (category: ConsentCategory, name: string, hint: string) => (
    <li className="cookie-purpose">
      <label className="cookie-purpose-label">
        <span className="cookie-purpose-text">
          <span className="cookie-purpose-name">{name}</span>
          <span className="cookie-purpose-hint">{hint}</span>
        </span>
        <input
          type="checkbox"
          role="switch"
          className="cookie-switch"
          checked={selected[category]}
          disabled={busy}
          onChange={(e) => onToggle(category, e.currentTarget.checked)}
        />
      </label>
    </li>
  );

  return (
    <section
      ref={sheet}
      className="cookie-sheet"
      aria-labelledby={titleId}
      aria-describedby={textId}
      onPointerDown={onInteract}
      onFocus={onInteract}
      onKeyDown={onInteract}
    >
      <div className="cookie-sheet-inner">
        <h2 id={titleId} className="cookie-sheet-title">
          <Trans>Cookie Preferences</Trans>
        </h2>
        <p id={textId} className="cookie-sheet-text">
          <Trans>
            Eddy keeps your sign-in and health records on this device, encrypted, so it works offline. Analytics and functional cookies only if you allow them;
            you can change this on your profile.
          </Trans>{' '}
          <Link to="/privacy" className="cookie-sheet-link">
            <Trans>Privacy Policy</Trans>
          </Link>
        </p>
        <ul className="cookie-purposes">
          <li className="cookie-purpose">
            <span className="cookie-purpose-text">
              <span className="cookie-purpose-name">
                <Trans>Essential</Trans>
              </span>
              <span className="cookie-purpose-hint">
                <Trans>Needed for the app to work.</Trans>
              </span>
            </span>
            <span className="cookie-always">
              <Trans>Always Active</Trans>
            </span>
          </li>
          {toggle('analytics', t`Analytics`, t`How the app is used. Never your health data.`)}
          {toggle('functional', t`Functional`, t`Extra conveniences.`)}
        </ul>
        <div className="cookie-actions">
          <button type="button" className="button" disabled={busy} onClick={() => onSave('necessary')}>
            {label('necessary', t`Reject All`)}
          </button>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => onSave('custom')}>
            {label('custom', t`Save Preferences`)}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => onSave('all')}>
            {label('all', t`Accept All`)}
          </button>
        </div>
      </div>
    </section>
  );
}

/**
 * The page gets room at its end for the sheet (body padding from --cookie-sheet-size), so what is at
 * the bottom can still be scrolled into view above it.
 */
function useSheetSize(sheet: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = sheet.current;
    if (!el) return undefined;
    const root = document.documentElement;
    const update = () => root.style.setProperty('--cookie-sheet-size', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    update();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : undefined;
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--cookie-sheet-size');
    };
  }, [sheet]);
}

/** The choice a press stands for: Reject All and Accept All set both, Save Preferences keeps the switches. */
export function choiceFor(type: SaveType, selected: ConsentChoice): ConsentChoice {
  if (type === 'all') return { analytics: true, functional: true };
  if (type === 'necessary') return { analytics: false, functional: false };
  return selected;
}
