import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { makeFmt } from '../../report/format.ts';
import type { GlucoseUnit, Judgeable } from '../../schemas/glucose-units.ts';
import { CONSENSUS_EDGES } from '../../schemas/judgement.ts';
import { labDecimals, labValue } from '../../report/statistics.ts';
import { reportTranslate } from './report-translate.ts';

/**
 * Numbers, glucose values and dates of a report in the interface's language: the PDF's rules
 * (report/format.ts), so a mean, an SD, a CV, a share or a target reads the same on screen,
 * in the staff review and on paper.
 */
export function useReportFormat(unit: GlucoseUnit, timeZone: string) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  return useMemo(() => {
    const fmt = makeFmt(locale, unit, timeZone, reportTranslate(i18n));
    const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    return {
      locale,
      unit,
      /** The consensus edges as published in this unit. */
      edges: CONSENSUS_EDGES[unit],
      /** A calendar date (YYYY-MM-DD, or the date part of an ISO string). */
      day: (iso: string) => fmt.date(iso.slice(0, 10)),
      /** An instant on the patient's clock. */
      dateTime: fmt.dateTime,
      /** The patient's calendar date of an instant. */
      date: fmt.instantDate,
      /** A mg/dL value or a reading as shown in the chosen unit, without the unit (judgement.ts). */
      glucose: (r: Judgeable) => fmt.glu(r),
      decimal: (value: number) => decimal.format(value),
      /** A lab result with the decimals it was given (up to 3), as in the PDF: 0.74, not 0.7. */
      lab: (value: number, digits = labDecimals(value)) =>
        new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(labValue(value)),
      whole: (value: number) => whole.format(value),
      /** `value` is 0–100, whole percent (adherence). */
      percent: (value: number) => fmt.pct(value),
      share: fmt.share,
      sd: fmt.sd,
      cv: fmt.cv,
      a1c: fmt.a1c,
      edge: fmt.edge,
      tagTarget: fmt.tagTarget,
      targetsDefinition: fmt.targetsDefinition,
      t: fmt.t,
    };
  }, [i18n, locale, unit, timeZone]);
}

export type ReportFormat = ReturnType<typeof useReportFormat>;
