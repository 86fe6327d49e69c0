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
