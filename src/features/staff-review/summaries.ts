// Pure groupings of the review bundle: doses per prescription, lab results per test, symptoms per
// day, appointments before and after now.
import type { ReviewAppointment, ReviewDose, ReviewLabTest, ReviewSymptom } from './types.ts';

const DAY = 86_400_000;

export interface DoseHistory {
  last7Days: number;
  last30Days: number;
  /** ISO time of the latest dose, if any. */
  lastTakenAt: string | undefined;
}

export function doseHistories(doses: readonly ReviewDose[], now: number): Map<string, DoseHistory> {
  const out = new Map<string, DoseHistory>();
  for (const d of doses) {
    const at = Date.parse(d.takenAt);
    const h = out.get(d.prescrNo) ?? { last7Days: 0, last30Days: 0, lastTakenAt: undefined };
    if (at <= now && at > now - 7 * DAY) h.last7Days += 1;
    if (at <= now && at > now - 30 * DAY) h.last30Days += 1;
    if (h.lastTakenAt === undefined || at > Date.parse(h.lastTakenAt)) h.lastTakenAt = d.takenAt;
    out.set(d.prescrNo, h);
  }
  return out;
}

export interface LabSeries {
  name: string;
  latest: ReviewLabTest;
  previous: ReviewLabTest | undefined;
}

/** One entry per test name, the latest result first within it; tests in alphabetical order. */
export function labSeries(tests: readonly ReviewLabTest[], locale: string): LabSeries[] {
  const byName = new Map<string, ReviewLabTest[]>();
  for (const t of tests) byName.set(t.name, [...(byName.get(t.name) ?? []), t]);
  return [...byName.entries()]
    .map(([name, list]) => {
      const sorted = [...list].sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
      return { name, latest: sorted[0] as ReviewLabTest, previous: sorted[1] };
    })
    .sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** Symptoms grouped by `dayKey` (the caller's local day), newest day first. */
export function symptomsByDay(symptoms: readonly ReviewSymptom[], dayKey: (iso: string) => string): [string, ReviewSymptom[]][] {
  const sorted = [...symptoms].sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt));
  const days = new Map<string, ReviewSymptom[]>();
  for (const s of sorted) {
    const key = dayKey(s.recordedAt);
    days.set(key, [...(days.get(key) ?? []), s]);
  }
  return [...days.entries()];
}

/** Upcoming appointments soonest first; past ones latest first. */
export function splitAppointments(list: readonly ReviewAppointment[], now: number): { upcoming: ReviewAppointment[]; past: ReviewAppointment[] } {
  const upcoming = list.filter((a) => Date.parse(a.date) >= now).sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
  const past = list.filter((a) => Date.parse(a.date) < now).sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  return { upcoming, past };
}
