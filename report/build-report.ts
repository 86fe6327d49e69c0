// buildReport: everything a report shows, computed once from ReportInput in one glucose unit, so the
// screen, the PDF (in a worker or on the server), the CSV and the FHIR export all show the same
// numbers, rows and judgements (each reading judged as shown in that unit, judgement.ts).
import type { GlucoseUnit } from '../schemas/glucose-units.ts';
import { GLUCOSE_TYPES, type GlucoseType } from '../schemas/glucose.ts';
import { a1cEstimates } from '../schemas/a1c.ts';
import { addDays, daysInclusive, localDate, toLocal } from './dates.ts';
import { glucometerChecks, labSummary, medicineAdherence, symptomFrequency } from './records.ts';
import { bandOf, isLow, targetStatus } from '../schemas/judgement.ts';
import { glucoseSummary } from './statistics.ts';
import type { ReportInput, ReportModel, ReportReading } from './types.ts';

/** The period of the same length just before `range`. */
export function previousRange(range: ReportInput['range']): ReportInput['range'] {
  const days = daysInclusive(range.from, range.to);
  return { from: addDays(range.from, -days), to: addDays(range.from, -1) };
}

function localReadings(input: ReportInput, range: ReportInput['range'], unit: GlucoseUnit): ReportReading[] {
  const tz = input.patient.timeZone;
  const out: ReportReading[] = [];
  for (const r of input.readings) {
    const local = toLocal(r.recordedAt, tz);
    if (local.date < range.from || local.date > range.to) continue;
    out.push({
      id: r._id,
      recordedAt: r.recordedAt,
      ...local,
      type: r.type,
      value: r.value,
      unit: r.unit ?? null,
      enteredValue: r.enteredValue ?? null,
      utcOffsetMinutes: r.utcOffsetMinutes ?? null,
      band: bandOf(r, unit),
      target: targetStatus(r, r.type, unit),
    });
  }
  return out.sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt));
}

/** Every low (consensus band low or very low, as shown in `unit`) with the symptoms reported on its local day. */
function lowsWithSymptoms(readings: readonly ReportReading[], symptoms: ReportInput['symptoms'], tz: string, unit: GlucoseUnit): ReportModel['lows'] {
  const byDay = new Map<string, string[]>();
  for (const s of symptoms) {
    const day = localDate(s.recordedAt, tz);
    const list = byDay.get(day) ?? [];
    if (!list.includes(s.symptom)) list.push(s.symptom);
    byDay.set(day, list);
  }
  return readings.filter((r) => isLow(r, unit)).map((r) => ({ ...r, symptoms: byDay.get(r.date) ?? [] }));
}

/** One row per local day with readings, oldest first; each slot's values in the order measured. */
export function logbook(readings: readonly ReportReading[]): ReportModel['logbook'] {
  const rows = new Map<string, ReportModel['logbook'][number]>();
  const slot = { Fasting: 'fasting', Postprandial: 'postprandial', Random: 'random' } as const satisfies Record<GlucoseType, string>;
  for (const r of readings) {
    let row = rows.get(r.date);
    if (!row) rows.set(r.date, (row = { date: r.date, fasting: [], postprandial: [], random: [] }));
    row[slot[r.type]].push({ value: r.value, unit: r.unit ?? null, enteredValue: r.enteredValue ?? null, band: r.band });
  }
  return [...rows.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
}

/** The report of `input` with every glucose value shown and judged in `unit`. */
export function buildReport(input: ReportInput, unit: GlucoseUnit): ReportModel {
  const { range } = input;
  const tz = input.patient.timeZone;
  const days = daysInclusive(range.from, range.to);
  const today = localDate(input.generatedAt, tz);
  const readings = localReadings(input, range, unit);
  const overall = glucoseSummary(readings, days, unit);
  const byType = Object.fromEntries(
    GLUCOSE_TYPES.map((t) => [
      t,
      glucoseSummary(
        readings.filter((r) => r.type === t),
        days,
        unit,
      ),
    ]),
  ) as ReportModel['byType'];
  const readingDates = new Set(readings.map((r) => r.date));
  const { gmi, eA1c } = a1cEstimates(overall.mean, overall.count, readingDates.size);
  const prevRange = previousRange(range);
  const inRange = (iso: string) => {
    const d = localDate(iso, tz);
    return d >= range.from && d <= range.to;
  };
  return {
    input,
    unit,
    days,
    readings,
    daysWithReadings: readingDates.size,
    today,
    overall,
    byType,
    gmi,
    eA1c,
    previous: { range: prevRange, overall: glucoseSummary(localReadings(input, prevRange, unit), days, unit) },
    adherence: medicineAdherence(input, tz, today),
    symptoms: symptomFrequency(input.symptoms, range, tz),
    ...labSummary(input.labTests, range, tz),
    checks: glucometerChecks(input.patient.glucometerAlerts ?? [], range, today, readingDates),
    logbook: logbook(readings),
    lows: lowsWithSymptoms(readings, input.symptoms, tz, unit),
    appointments: input.appointments.filter((a) => inRange(a.date)).sort((a, b) => Date.parse(a.date) - Date.parse(b.date)),
  };
}
