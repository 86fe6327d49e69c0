// The report's period: inclusive calendar dates (YYYY-MM-DD) in the patient's time zone, as
// ReportInput wants them. "Today" is the patient's today, not the device's (a ward PC abroad, a
// patient travelling), and a report never covers days that have not happened yet.
import { addDays, daysInclusive, isIsoDate } from '../../../report/dates.ts';

export { addDays, isIsoDate };

export const RANGE_PRESETS = [7, 14, 30, 90] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export interface DateRange {
  from: string;
  to: string;
}

export type RangeError = 'from-missing' | 'to-missing' | 'from-invalid' | 'to-invalid' | 'from-after-to' | 'from-future' | 'to-future';

export type RangeCheck = { ok: true; range: DateRange; days: number } | { ok: false; errors: RangeError[] };

/** Days from `from` to `to`, both included. */
export const daysInRange = (range: DateRange): number => daysInclusive(range.from, range.to);

/** The calendar date of `now` in `timeZone`; the device's zone when the name is unknown. */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  const parts = (zone: string | undefined) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  let found: Intl.DateTimeFormatPart[];
  try {
    found = parts(timeZone);
  } catch {
    // RangeError for a zone this browser does not know: the device's calendar is the best guess.
    found = parts(undefined);
  }
  const get = (type: string) => found.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The last `days` days up to and including `today`. */
export function presetRange(days: number, today: string): DateRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Checks what a person typed; every problem is listed so each field can say what is wrong with it. */
export function checkRange(from: string, to: string, today: string): RangeCheck {
  const errors: RangeError[] = [];
  const f = from.trim();
  const tt = to.trim();
  const fromOk = f !== '' && isIsoDate(f);
  const toOk = tt !== '' && isIsoDate(tt);
  if (f === '') errors.push('from-missing');
  else if (!fromOk) errors.push('from-invalid');
  if (tt === '') errors.push('to-missing');
  else if (!toOk) errors.push('to-invalid');
  // ISO dates compare as text in calendar order.
  if (fromOk && f > today) errors.push('from-future');
  if (toOk && tt > today) errors.push('to-future');
  if (fromOk && toOk && f > tt) errors.push('from-after-to');
  if (errors.length > 0) return { ok: false, errors };
  const range = { from: f, to: tt };
  return { ok: true, range, days: daysInRange(range) };
}
