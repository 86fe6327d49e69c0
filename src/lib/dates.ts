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

// --- Which clock a time is read on ----------------------------------------------------------
// The patient's screens show times on this device's clock; the reports, the PDF and the CSV on the
// profile's zone (the care team's view of the patient's day). When the two may differ, a time shown
// without its zone can be read on the wrong one ("6:43 PM" here is "11:13 PM" in the report), so
// every time then names its zone ("6:43 PM GMT+1").

/** This device's IANA zone ("Europe/Paris"); "UTC" when the browser names none. */
export function deviceTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The device's UTC offset at `at` in minutes east of UTC, as a reading keeps it (+60 in Paris in winter). */
export function deviceUtcOffset(at: Date): number {
  // getTimezoneOffset is minutes *west* of UTC; `|| 0` keeps UTC itself from being −0.
  return -at.getTimezoneOffset() || 0;
}

const canonical = new Map<string, string | undefined>();
/** The zone's canonical name as this browser spells it ("Asia/Calcutta" for "Asia/Kolkata" in some), or undefined when unknown. */
function canonicalZone(timeZone: string): string | undefined {
  if (!canonical.has(timeZone)) {
    try {
      canonical.set(timeZone, new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone);
    } catch {
      canonical.set(timeZone, undefined);
    }
  }
  return canonical.get(timeZone);
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** The UTC offset of `timeZone` at `at` in minutes east of UTC, or undefined for a zone this browser does not know. */
export function zoneOffsetAt(timeZone: string, at: Date): number | undefined {
  const zone = canonicalZone(timeZone);
  if (!zone) return undefined;
  let f = offsetFormats.get(zone);
  if (!f) offsetFormats.set(zone, (f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })));
  // "GMT+05:30", "GMT-03:00", or "GMT" for UTC itself.
  const name = f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const m = /^GMT(?:([+\-\u2212])(\d{1,2})(?::?(\d{2}))?)?$/.exec(name);
  if (!m) return undefined;
  if (!m[1]) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '+' ? minutes : -minutes;
}

/**
 * Whether a time shown on `device`'s clock may be read on `profile`'s: the zones have different
 * names, aliases aside (Asia/Calcutta and Asia/Kolkata are one zone). Zones of different names are
 * told apart even while their offsets agree (Europe/London and UTC in winter): one of them moves
 * its clocks and the other does not, and the names are what the screens say. No profile zone (not
 * synced yet): nothing to confuse it with.
 */
export function zonesDiffer(device: string, profile: string | null | undefined): boolean {
  if (!profile) return false;
  const [a, b] = [canonicalZone(device), canonicalZone(profile)];
  return a && b ? a !== b : device !== profile;
}

/** How much of the instant a screen shows: as the styles Intl names, so an unnamed time reads as it always has. */
export type TimeStyle = 'time' | 'shortDateTime' | 'dateTime' | 'fullDateTime';

const STYLES: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  time: { timeStyle: 'short' },
  shortDateTime: { dateStyle: 'short', timeStyle: 'short' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  fullDateTime: { dateStyle: 'full', timeStyle: 'short' },
};
// Intl allows no zone name beside dateStyle/timeStyle: the same fields spelled out.
const NAMED_STYLES: Record<TimeStyle, Intl.DateTimeFormatOptions> = {
  time: { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
  shortDateTime: { year: '2-digit', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
  dateTime: { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
  fullDateTime: { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
};

export interface ClockZones {
  /** The zone the screens show times in: this device's. */
  device: string;
  /** The profile's zone (the reports'), once the profile is on the device. */
  profile?: string | null | undefined;
}

export interface TimeFormat {
  /**
   * An instant on the device's clock, with its zone's short name ("6:43 PM GMT+1") when it may be
   * read on another clock: the profile's zone differs, or the reading was taken at another offset
   * (`takenAtOffset`, the offset the device had then) than the device has for that instant now.
   */
  format(at: Date | string | number, takenAtOffset?: number | null): string;
}

/** Formats of `style` on the device's clock, naming the zone where a time may be read on another. */
export function timeFormat(locale: string, style: TimeStyle, zones: ClockZones): TimeFormat {
  const always = zonesDiffer(zones.device, zones.profile);
  // Made when first needed: a screen makes several of these, and most never name a zone.
  let plainFormat: Intl.DateTimeFormat | undefined;
  let namedFormat: Intl.DateTimeFormat | undefined;
  const plain = () => (plainFormat ??= zonedDateFormat(locale, STYLES[style], zones.device));
  const named = () => (namedFormat ??= zonedDateFormat(locale, NAMED_STYLES[style], zones.device));
  // The process's own zone has its offsets without Intl (lists of thousands of readings).
  const offsetAt = zones.device === deviceTimeZone() ? deviceUtcOffset : (at: Date) => zoneOffsetAt(zones.device, at);
  return {
    format(value, takenAtOffset) {
      const at = value instanceof Date ? value : new Date(value);
      const elsewhere = typeof takenAtOffset === 'number' && takenAtOffset !== offsetAt(at);
      return (always || elsewhere ? named() : plain()).format(at);
    },
  };
}

/** A zone's short name at `at` as the locale writes it ("GMT+5:30", "CET", "UTC+1"), or the IANA name when unknown. */
export function zoneShortName(locale: string, timeZone: string, at: Date = new Date()): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', timeZoneName: 'short' }).formatToParts(at);
    return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
  } catch {
    return timeZone;
  }
}

/**
 * A wall-clock time of the profile's zone ("20:30": a meal time, the reminder due then) as the
 * locale writes it, naming that zone when this device's differs ("8:30 PM GMT+5:30"): the server
 * sends reminders on the profile's clock.
 */
export function profileClockTime(hhmm: string, locale: string, zones: ClockZones, at: Date = new Date()): string {
  const time = formatClockTime(hhmm, locale);
  return zones.profile && zonesDiffer(zones.device, zones.profile) ? `${time} ${zoneShortName(locale, zones.profile, at)}` : time;
}
