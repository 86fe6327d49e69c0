import { Trans, useLingui } from '@lingui/react/macro';
import { useRouter } from '@tanstack/react-router';
import { useId } from 'react';
import { inBackground } from '../../sync/background.ts';
import { activateLocale, isLocale, LANGUAGE_NAMES, LOCALES, stripLocale, withLocale } from '../lib/i18n.ts';
import { Icon } from './icon.tsx';
import './language-select.css';

/**
 * Switches the language of the whole app (on the login pages, the profile and the staff header).
 * activateLocale remembers the choice in the i18n_redirected cookie; the address then gets the new
 * locale's prefix (/es/app/profile), replaced in history rather than navigated to: the router would
 * see "the same location" (it compares unprefixed paths) and keep the old prefix.
 *
 * Each language is named in itself ("Español", "العربية"), so a patient finds theirs whatever is shown.
 * `compact`: no visible label (the header's variant), the select is still labelled for screen readers.
 */
export function LanguageSelect({ compact = false, onChanged }: { compact?: boolean; onChanged?: () => void }) {
  const { i18n, t } = useLingui();
  const router = useRouter();
  const id = useId();
  const current = isLocale(i18n.locale) ? i18n.locale : undefined;

  async function change(value: string) {
    if (!isLocale(value) || value === current) return;
    const active = await activateLocale(value);
    const { pathname, search, hash } = window.location;
    router.history.replace(`${withLocale(stripLocale(pathname), active)}${search}${hash}`);
    onChanged?.();
  }

  const select = (
    <select
      id={id}
      value={current}
      onChange={(e) => inBackground(change(e.target.value), 'Changing the language failed')}
      {...(compact ? { 'aria-label': t`Language` } : {})}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </select>
  );
  if (compact) {
    return (
      <span className="language-select language-select--compact">
        <Icon icon="mdi:translate" />
        {select}
      </span>
    );
  }
  return (
    <div className="field language-select">
      <label htmlFor={id}>
        <Trans>Language</Trans>
      </label>
      {select}
    </div>
  );
}
