// The device's own calendar, as forms and lists need it. Times are stored as ISO instants; what a
// patient calls "today" or "8:30" is the device's local day and clock.

const pad = (n: number) => String(n).padStart(2, '0');

/** The device's calendar day of an instant, "2026-11-22": a date input's value, a grouping key. */
export function localDateKey(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** A datetime-local input's value for an instant, in the device's zone ("2026-11-22T08:30"). */
export function toLocalInput(d: Date): string {
  return `${localDateKey(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A wall-clock time "HH:MM" (a meal time, a reminder's time) as the locale writes it: "8:30 PM",
 * "20:30", "८:३० pm"… Anything else is shown as it came.
 */
export function formatClockTime(hhmm: string, locale: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(hhmm.trim());
  if (!m) return hhmm;
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h > 23 || min > 59) return hhmm;
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, h, min));
}

/**
 * A date format on a patient's clock (`timeZone`), or on this device's when none is given or the
 * name is unknown to this browser (a staff device may lack a rare zone).
 */
export function zonedDateFormat(locale: string, opts: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormat {
  if (timeZone) {
    try {
      return new Intl.DateTimeFormat(locale, { ...opts, timeZone });
    } catch {
      // An unknown zone: the device's clock below.
    }
  }
  return new Intl.DateTimeFormat(locale, opts);
}
