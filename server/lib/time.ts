// Calendar arithmetic in a patient's own time zone: "today" and "the day of a reading" are local
// notions (a symptom at 23:30 in Kolkata belongs to that day, not to UTC's next one).

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** YYYY-MM-DD of `instant` in `timeZone`. */
export function localDate(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** A real calendar date (rejects 2026-02-30), as strings from JSON Schema's `date` format can be. */
export function isRealDate(ymd: string): boolean {
  const d = new Date(`${ymd}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === ymd;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** Wall-clock fields of `instant` in `timeZone` (24-hour). */
function wallClock(instant: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(timeZone, f);
  }
  const n: Record<string, number> = {};
  for (const p of f.formatToParts(instant)) if (p.type !== 'literal') n[p.type] = Number(p.value);
  return { y: n['year'] ?? 0, mo: n['month'] ?? 1, d: n['day'] ?? 1, h: n['hour'] ?? 0, mi: n['minute'] ?? 0, s: n['second'] ?? 0 };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the wall clock in `timeZone` shows `date` (YYYY-MM-DD) `time` (HH:MM).
 * Daylight-saving changes are resolved the way people live them (and as Temporal's "compatible"
 * does): a time skipped by the spring-forward gap happens that much later (02:30 → 03:30), and a
 * time that occurs twice in the autumn overlap is the first of the two.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi] = time.split(':').map(Number);
  const wall = Date.UTC(y ?? 1970, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0);
  // Offsets half a day either side bracket any transition near this wall time.
  const before = offsetAt(wall - 12 * 3600_000, timeZone);
  const after = offsetAt(wall + 12 * 3600_000, timeZone);
  const candidates = [wall - before, wall - after].filter((t) => wall - offsetAt(t, timeZone) === t);
  if (candidates.length > 0) return new Date(Math.min(...candidates));
  return new Date(wall - before); // in the gap: shifted forward by its length
}

/** HH:MM of `instant` on the wall clock of `timeZone`. */
export function localTime(instant: Date, timeZone: string): string {
  const w = wallClock(instant.getTime(), timeZone);
  return `${String(w.h).padStart(2, '0')}:${String(w.mi).padStart(2, '0')}`;
}

/** English weekday name of a calendar date ("2026-11-23" → "Monday"). */
export function weekdayOf(date: string): (typeof WEEKDAY_NAMES)[number] {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return WEEKDAY_NAMES[(day + 6) % 7] ?? 'Monday';
}
const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

let knownZones: Map<string, string> | undefined;

/**
 * A valid zone with its usual letter case ("europe/madrid" → "Europe/Madrid"), or undefined. Not
 * resolved further: ICU would turn today's "Asia/Kolkata" into the outdated "Asia/Calcutta".
 */
export function canonicalTimeZone(tz: string): string | undefined {
  if (!tz || !isValidTimeZone(tz)) return undefined;
  knownZones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  return knownZones.get(tz.toLowerCase()) ?? tz;
}
