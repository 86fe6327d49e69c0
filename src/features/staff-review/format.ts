import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';

/** Dates and numbers in the interface's locale. */
export function useFormat() {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  return useMemo(() => {
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const day = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    return {
      locale,
      dateTime: (iso: string | number) => dateTime.format(new Date(iso)),
      date: (iso: string) => date.format(new Date(iso)),
      day: (iso: string) => day.format(new Date(iso)),
      percent: (value: number) => percent.format(value / 100),
      number: (value: number) => number.format(value),
    };
  }, [locale]);
}

export type Format = ReturnType<typeof useFormat>;
