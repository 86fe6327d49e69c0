// Calendar arithmetic for the report. A report's range is a pair of local calendar dates in the
// patient's time zone (a reading at 23:30 in Kolkata belongs to that day, not to UTC's next one), so
// every instant is turned into a local date and time with Intl, which runs alike in Node, a page and
// a worker. Plain dates (YYYY-MM-DD) are handled as UTC midnights, where a day is always 24 hours.

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per time zone: building them is the slow part, and a report formats thousands of instants. */
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export interface LocalDateTime {
  /** YYYY-MM-DD */
  date: string;
  /** HH:MM, 24-hour */
  time: string;
  /** Minutes since local midnight (0–1439). */
  minutes: number;
}

/** The local calendar date and wall-clock time of `instant` in `timeZone`. */
export function toLocal(instant: string | Date, timeZone: string): LocalDateTime {
  const d = typeof instant === 'string' ? new Date(instant) : instant;
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(d)) parts[p.type] = p.value;
  const hour = Number(parts['hour']) % 24;
  const minute = Number(parts['minute']);
  const hh = String(hour).padStart(2, '0');
  return { date: `${parts['year']}-${parts['month']}-${parts['day']}`, time: `${hh}:${parts['minute']}`, minutes: hour * 60 + minute };
}

/** YYYY-MM-DD of `instant` in `timeZone`. */
export const localDate = (instant: string | Date, timeZone: string): string => toLocal(instant, timeZone).date;

/** The instant local midnight begins `ymd` in `timeZone` (the offset of that midnight, DST included). */
export function localMidnight(ymd: string, timeZone: string): number {
  const guess = Date.parse(`${ymd}T00:00:00Z`);
  const offsetAt = (instant: number) => {
    const l = toLocal(new Date(instant), timeZone);
    return Date.parse(`${l.date}T${l.time}:00Z`) - instant;
  };
  const first = guess - offsetAt(guess);
  return guess - offsetAt(first);
}

const toMs = (ymd: string) => Date.parse(`${ymd}T00:00:00Z`);

/** `ymd` moved by `days` calendar days. */
export function addDays(ymd: string, days: number): string {
  return new Date(toMs(ymd) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (1 when equal; 0 when `to` is before `from`). */
export function daysInclusive(from: string, to: string): number {
  return Math.max(0, Math.round((toMs(to) - toMs(from)) / DAY_MS) + 1);
}

/** Every date from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The English weekday name of a calendar date (the form glucometer alert days are stored in). */
export function weekdayOf(ymd: string): (typeof WEEKDAY_NAMES)[number] {
  return WEEKDAY_NAMES[new Date(toMs(ymd)).getUTCDay()] ?? 'Sunday';
}

/** A real calendar date (rejects 2026-02-30 and anything not YYYY-MM-DD). */
export function isIsoDate(ymd: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(ymd)) return false;
  const ms = toMs(ymd);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === ymd;
}

/** "+05:30", "-03:00", "+00:00": an offset east of UTC in minutes, as ISO 8601 writes it. */
export function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * An instant written on the clock of the device that recorded it ("2026-12-04T18:43:00+01:00"): the
 * same instant as the ISO string in UTC, with the wall time the patient saw. Without an offset, UTC.
 */
export function instantWithOffset(iso: string, offsetMinutes: number | null | undefined): string {
  const ms = Date.parse(iso);
  if (offsetMinutes === null || offsetMinutes === undefined) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const fraction = ms % 1000 === 0 ? '' : new Date(ms).toISOString().slice(19, 23);
  return `${local}${fraction}${offsetText(offsetMinutes)}`;
}
