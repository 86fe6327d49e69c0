// Glucometer alert days (docs/requirements.md §3 glucometerAlerts): a weekday name in English, capitalised as the
// server stores it ("Monday": every week), or one date "YYYY-MM-DD". Shown in the patient's language.
import { WEEKDAYS } from '../../../schemas/user-profile.ts';
import { localDateKey } from '../../lib/dates.ts';

export type Weekday = (typeof WEEKDAYS)[number];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const isWeekday = (day: string): day is Weekday => (WEEKDAYS as readonly string[]).includes(day);

/** A "YYYY-MM-DD" that names a real day, as midnight UTC; undefined otherwise. */
function parseDate(day: string): Date | undefined {
  const m = DATE.exec(day);
  if (!m) return undefined;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === day ? date : undefined;
}

export const weekdayOfDate = (date: Date): Weekday => WEEKDAYS[(date.getUTCDay() + 6) % 7] as Weekday;

/** Weekdays first, Monday to Sunday, then dates from the earliest. */
export function sortDays(days: readonly string[]): string[] {
  const rank = (d: string) => (isWeekday(d) ? WEEKDAYS.indexOf(d) : WEEKDAYS.length);
  return [...days].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The device's calendar day as "YYYY-MM-DD" (what a date input's value and min use). */
export const localIsoDate = localDateKey;

// 1 January 2024 was a Monday: the reference week that gives Intl a date for each weekday name.
const REFERENCE_MONDAY = Date.UTC(2024, 0, 1);

export function weekdayName(day: Weekday, locale: string): string {
  const date = REFERENCE_MONDAY + WEEKDAYS.indexOf(day) * 86_400_000;
  return new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(date);
}

/** A stored date in the patient's language, e.g. "Monday, 30 November 2026"; unparseable text as is. */
export function formatDay(day: string, locale: string): string {
  const date = parseDate(day);
  if (!date) return day;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(date);
}

export type NewDayProblem = 'missing' | 'invalid' | 'past' | 'duplicate' | 'covered-by-weekday';

/** Why `day` cannot be added to `existing` on `today` ("YYYY-MM-DD" of the device), if it cannot. */
export function checkNewDay(existing: readonly string[], day: string, today: string): NewDayProblem | undefined {
  if (day === '') return 'missing';
  if (existing.includes(day)) return 'duplicate';
  if (isWeekday(day)) return undefined;
  const date = parseDate(day);
  if (!date) return 'invalid';
  if (day < today) return 'past';
  // The weekly alert already reminds on that day: a second alert would only repeat it.
  if (existing.includes(weekdayOfDate(date))) return 'covered-by-weekday';
  return undefined;
}

/** A date alert whose day is over: kept (the server keeps it) but shown as past. */
export const isPastDate = (day: string, today: string): boolean => !isWeekday(day) && parseDate(day) !== undefined && day < today;
