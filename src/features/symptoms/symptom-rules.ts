// The rules of a symptom report that do not need React: what counts as the same symptom, which
// calendar day a report belongs to, and the one-report-per-symptom-per-day check (docs/requirements.md §4, §5).
import type { Symptom } from '../../../schemas/symptom.ts';
import { localDateKey, toLocalInput } from '../../lib/dates.ts';

export const SYMPTOM_MAX_LENGTH = 100;

/** "  Blurred   vision " and "Blurred vision" are the same symptom (the server normalises alike). */
export const normaliseSymptom = (s: string): string => s.trim().replace(/\s+/g, ' ');

/** Case does not make another symptom: "headache" on the day of "Headache" is a duplicate. */
export const symptomKey = (s: string): string => normaliseSymptom(s).toLocaleLowerCase();

/** The device's calendar day of an instant, "2026-11-22"; reports are grouped and limited by it. */
export const localDayKey = localDateKey;

/** The start and end (exclusive) of the device's calendar day that holds `d`. */
export function localDayBounds(d: Date): { start: Date; end: Date } {
  const start = new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const end = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1);
  return { start, end };
}

export { toLocalInput };

/** The earlier report of the same symptom on the same local day as `at`, if there is one. */
export function findSameDayReport(
  reports: readonly Pick<Symptom, 'symptom' | 'recordedAt'>[],
  symptom: string,
  at: Date,
): Pick<Symptom, 'symptom' | 'recordedAt'> | undefined {
  const key = symptomKey(symptom);
  const day = localDayKey(at);
  return reports.find((r) => symptomKey(r.symptom) === key && localDayKey(new Date(r.recordedAt)) === day);
}

/** What a person typed, checked: the symptom to store, or why it cannot be stored. */
export function parseSymptomName(text: string): { symptom: string } | { error: 'empty' | 'too-long' } {
  const symptom = normaliseSymptom(text);
  if (symptom === '') return { error: 'empty' };
  if (symptom.length > SYMPTOM_MAX_LENGTH) return { error: 'too-long' };
  return { symptom };
}

/** Reference names that contain every word typed, those that start with it first. */
export function matchSymptoms(names: readonly string[], query: string): string[] {
  const words = symptomKey(query).split(' ').filter(Boolean);
  if (words.length === 0) return [...names];
  const q = symptomKey(query);
  const hits = names.filter((n) => {
    const key = symptomKey(n);
    return words.every((w) => key.includes(w));
  });
  return [...hits.filter((n) => symptomKey(n).startsWith(q)), ...hits.filter((n) => !symptomKey(n).startsWith(q))];
}

/** Reports grouped by the device's calendar day, newest day first and newest report first. */
export function groupByDay<T extends Pick<Symptom, 'recordedAt'>>(reports: readonly T[]): { day: string; date: Date; reports: T[] }[] {
  const sorted = [...reports].sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
  const groups: { day: string; date: Date; reports: T[] }[] = [];
  for (const r of sorted) {
    const date = new Date(r.recordedAt);
    const day = localDayKey(date);
    const last = groups.at(-1);
    if (last?.day === day) last.reports.push(r);
    else groups.push({ day, date, reports: [r] });
  }
  return groups;
}
