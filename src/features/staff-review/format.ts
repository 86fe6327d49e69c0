import { useLingui } from '@lingui/react/macro';
import { createContext, useContext, useMemo } from 'react';
import { zonedDateFormat } from '../../lib/dates.ts';

/**
 * The time zone a patient's records are shown in: the patient's own during a review (the report's
 * days are the patient's, so a reading at 23:30 there must not read as the next day here); the
 * device's where none is given.
 */
export const PatientTimeZone = createContext<string | undefined>(undefined);

/** Dates and numbers in the interface's locale, instants on the patient's clock (PatientTimeZone). */
export function useFormat() {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const timeZone = useContext(PatientTimeZone);
  return useMemo(() => {
    const dateTime = zonedDateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }, timeZone);
    const date = zonedDateFormat(locale, { dateStyle: 'medium' }, timeZone);
    const day = zonedDateFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }, timeZone);
    // A calendar date (YYYY-MM-DD, e.g. a prescription's start) is no instant: no zone may shift it.
    const calendar = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    return {
      locale,
      dateTime: (iso: string | number) => dateTime.format(new Date(iso)),
      date: (iso: string) => date.format(new Date(iso)),
      day: (iso: string) => day.format(new Date(iso)),
      calendarDate: (ymd: string) => calendar.format(new Date(`${ymd.slice(0, 10)}T00:00:00Z`)),
      percent: (value: number) => percent.format(value / 100),
      number: (value: number) => number.format(value),
    };
  }, [locale, timeZone]);
}

export type Format = ReturnType<typeof useFormat>;
