// The report's non-glucose sections: medicine adherence, symptoms, lab results, glucometer checks.
// Every function takes what it needs plus the patient's time zone; "a day" is a local calendar day.
import type { MealSlot, ReportInput, ReportModel } from './types.ts';
import { daysInclusive, eachDay, localDate, weekdayOf } from './dates.ts';
import { hbA1cPercent, isHbA1c } from '../schemas/a1c.ts';

export const MEAL_SLOTS = ['breakfast', 'lunch', 'dinner'] as const satisfies readonly MealSlot[];

// One part of a dose pattern: 1, 0.5, 0,5, 1/2, ½, 1½.
const PART = String.raw`(\d+(?:[.,]\d+)?|\d*\s*[½¼¾]|\d+\s*\/\s*\d+)`;
const PATTERN = new RegExp(String.raw`^\s*${PART}\s*-\s*${PART}\s*-\s*${PART}(?:\s|$)`);
const FRACTIONS: Record<string, number> = { '½': 0.5, '¼': 0.25, '¾': 0.75 };

function partAmount(part: string): number {
  const p = part.replace(/\s+/g, '');
  const slash = /^(\d+)\/(\d+)$/.exec(p);
  if (slash) return Number(slash[2]) === 0 ? 0 : Number(slash[1]) / Number(slash[2]);
  const frac = FRACTIONS[p.slice(-1)];
  if (frac !== undefined) return (p.length > 1 ? Number(p.slice(0, -1)) : 0) + frac;
  return Number(p.replace(',', '.'));
}

/**
 * The meals a dose is taken at. A dose pattern "morning-noon-night" of three numbers ("1-0-1",
 * "½-0-1", "0.5-1-0", optionally followed by text such as "1-0-1 after food") covers the meals with a
 * non-zero amount; any other dose ("10 units", "1 tablet") is reminded at every meal, as the
 * server's reminders do.
 */
export function doseMeals(dose: string): MealSlot[] {
  const m = PATTERN.exec(dose);
  if (!m) return [...MEAL_SLOTS];
  return MEAL_SLOTS.filter((_, i) => partAmount(m[i + 1] ?? '0') > 0);
}

export const dosesPerDay = (dose: string): number => doseMeals(dose).length;

const maxDate = (a: string, b: string) => (a > b ? a : b);
const minDate = (a: string, b: string) => (a < b ? a : b);

/**
 * Doses marked taken vs expected, per medicine, over the days it was active within the range and not
 * after `today` (days still to come expect nothing). Expected = doses per day × those days. Marks
 * count once per expected dose: a dose marked twice on a day does not make up for another day.
 * Medicines not active on any day of the range are left out. Listed by name.
 */
export function medicineAdherence(input: Pick<ReportInput, 'medicines' | 'intakes' | 'range'>, timeZone: string, today: string): ReportModel['adherence'] {
  const out: ReportModel['adherence'] = [];
  for (const med of input.medicines) {
    const start = maxDate(input.range.from, med.startDate ?? input.range.from);
    const end = minDate(minDate(input.range.to, today), med.endDate ?? input.range.to);
    const days = daysInclusive(start, end);
    const perDay = dosesPerDay(med.dose);
    if (days === 0 || perDay === 0) continue;
    const perDate = new Map<string, number>();
    for (const i of input.intakes) {
      if (i.prescrNo !== med.prescrNo) continue;
      const d = localDate(i.takenAt, timeZone);
      if (d >= start && d <= end) perDate.set(d, (perDate.get(d) ?? 0) + 1);
    }
    let taken = 0;
    for (const n of perDate.values()) taken += Math.min(n, perDay);
    const expected = perDay * days;
    out.push({ prescrNo: med.prescrNo, name: med.name, dose: med.dose, expected, taken, percent: (taken / expected) * 100 });
  }
  // By name, the same on every device and in every output: the device's collection has no order of
  // its own (the report listed Metformin first on one load and Glimepiride first on the next).
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.prescrNo.localeCompare(b.prescrNo));
}

/** Symptoms reported in the range, most frequent first (then most recent, then by name). */
export function symptomFrequency(symptoms: ReportInput['symptoms'], range: ReportInput['range'], timeZone: string): ReportModel['symptoms'] {
  const by = new Map<string, { symptom: string; count: number; lastAt: string }>();
  for (const s of symptoms) {
    const d = localDate(s.recordedAt, timeZone);
    if (d < range.from || d > range.to) continue;
    const e = by.get(s.symptom);
    if (!e) by.set(s.symptom, { symptom: s.symptom, count: 1, lastAt: s.recordedAt });
    else {
      e.count += 1;
      if (Date.parse(s.recordedAt) > Date.parse(e.lastAt)) e.lastAt = s.recordedAt;
    }
  }
  return [...by.values()].sort((a, b) => b.count - a.count || Date.parse(b.lastAt) - Date.parse(a.lastAt) || a.symptom.localeCompare(b.symptom));
}

const labKey = (name: string) => name.trim().toLowerCase();
const byTime = (a: { recordedAt: string }, b: { recordedAt: string }) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt);

/**
 * Lab tests with a result in the range (names compared without case): the latest result in the range
 * and the one before it (which may predate the range), in the order of the latest result, newest
 * first. `latestHbA1c` is the newest HbA1c up to the range's end, wherever it falls, as NGSP %.
 */
export function labSummary(labTests: ReportInput['labTests'], range: ReportInput['range'], timeZone: string): Pick<ReportModel, 'labs' | 'latestHbA1c'> {
  const groups = new Map<string, ReportInput['labTests']>();
  const upToEnd = labTests.filter((t) => localDate(t.recordedAt, timeZone) <= range.to).sort(byTime);
  for (const t of upToEnd) {
    const list = groups.get(labKey(t.name)) ?? [];
    list.push(t);
    groups.set(labKey(t.name), list);
  }
  const labs: ReportModel['labs'] = [];
  for (const list of groups.values()) {
    const latestIdx = list.findLastIndex((t) => localDate(t.recordedAt, timeZone) >= range.from);
    const latest = list[latestIdx];
    if (latestIdx < 0 || !latest) continue;
    const prev = list[latestIdx - 1];
    labs.push({
      name: latest.name,
      unit: latest.unit ?? null,
      loinc: latest.loinc ?? null,
      latest: { value: latest.value, recordedAt: latest.recordedAt },
      ...(prev ? { previous: { value: prev.value, recordedAt: prev.recordedAt } } : {}),
    });
  }
  labs.sort((a, b) => Date.parse(b.latest.recordedAt) - Date.parse(a.latest.recordedAt) || a.name.localeCompare(b.name));
  const a1c = upToEnd.filter((t) => isHbA1c(t.name)).at(-1);
  const latestHbA1c = a1c ? { value: a1c.value, unit: a1c.unit ?? null, percent: hbA1cPercent(a1c.value, a1c.unit), recordedAt: a1c.recordedAt } : null;
  return { labs, latestHbA1c };
}

/**
 * Glucometer days planned in the range (up to `today`) from the alert list — weekday names (any
 * case) repeat every week, YYYY-MM-DD dates count once — and how many of them have at least one
 * reading of any type.
 */
export function glucometerChecks(
  alerts: readonly string[],
  range: ReportInput['range'],
  today: string,
  readingDates: ReadonlySet<string>,
): ReportModel['checks'] {
  const weekdays = new Set(alerts.filter((a) => !/^\d/.test(a)).map((a) => a.toLowerCase()));
  const dates = new Set(alerts.filter((a) => /^\d{4}-\d{2}-\d{2}$/.test(a)));
  const end = minDate(range.to, today);
  const planned = range.from > end ? [] : eachDay(range.from, end).filter((d) => dates.has(d) || weekdays.has(weekdayOf(d).toLowerCase()));
  const missed = planned.filter((d) => !readingDates.has(d));
  return { plannedDays: planned.length, daysWithReading: planned.length - missed.length, missedDays: missed };
}
