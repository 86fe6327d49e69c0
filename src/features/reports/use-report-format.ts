import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { zonedDateFormat } from '../../lib/dates.ts';
import { formatGlucose, type GlucoseUnit } from '../../lib/units.ts';
import { labDecimals, labValue, type Judgeable } from '../../../schemas/report/statistics.ts';

/** Numbers, glucose values and dates of a report in the interface's language. */
export function useReportFormat(unit: GlucoseUnit, timeZone: string) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  return useMemo(() => {
    // A report day is a calendar date, not an instant: formatted in UTC so no zone can shift it.
    const day = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    // Instants are shown on the patient's clock; an unknown zone name falls back to the device's.
    const zoned = (opts: Intl.DateTimeFormatOptions) => zonedDateFormat(locale, opts, timeZone);
    const dateTime = zoned({ dateStyle: 'medium', timeStyle: 'short' });
    const date = zoned({ dateStyle: 'medium' });
    const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    const a1c = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return {
      locale,
      unit,
      day: (iso: string) => day.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`)),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      /** The patient's calendar date of an instant. */
      date: (iso: string) => date.format(new Date(iso)),
      /** A mg/dL value or a reading in the chosen unit, without the unit (a reading as typed: formatGlucose). */
      glucose: (r: Judgeable) => formatGlucose(r, unit, locale),
      decimal: (value: number) => decimal.format(value),
      /** A lab result with the decimals it was given (up to 3), as in the PDF: 0.74, not 0.7. */
      lab: (value: number, digits = labDecimals(value)) => {
        return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(labValue(value));
      },
      whole: (value: number) => whole.format(value),
      /** `value` is 0–100. */
      percent: (value: number) => percent.format(value / 100),
      /** An A1c (NGSP %), one decimal: "7.1%". */
      a1c: (value: number) => a1c.format(value / 100),
    };
  }, [locale, unit, timeZone]);
}

export type ReportFormat = ReturnType<typeof useReportFormat>;
