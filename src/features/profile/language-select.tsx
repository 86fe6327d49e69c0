import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { activateLocale, isLocale, LOCALES, type Locale } from '../../lib/i18n.ts';

/** A language named in itself ("English", "Español"), so a patient finds theirs whatever is shown now. */
export function nativeLanguageName(locale: Locale): string {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/**
 * Switches the language of the whole app. activateLocale remembers the choice in the
 * i18n_redirected cookie; `onChanged` then re-navigates so the URL carries the new prefix.
 */
export function LanguageSelect({ onChanged }: { onChanged: () => void }) {
  const { i18n } = useLingui();
  const id = useId();
  const current = isLocale(i18n.locale) ? i18n.locale : undefined;

  async function change(value: string) {
    if (!isLocale(value) || value === current) return;
    await activateLocale(value);
    onChanged();
  }

  return (
    <div className="field">
      <label htmlFor={id}>
        <Trans>Language</Trans>
      </label>
      <select id={id} value={current} onChange={(e) => void change(e.target.value)}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>
            {nativeLanguageName(l)}
          </option>
        ))}
      </select>
    </div>
  );
}
