// A known data set for the report's tests (statistics, PDF text, server endpoints), small enough to
// compute by hand. Patient in Asia/Kolkata (+05:30); range 1–14 March 2026 (14 days).
//
// Every day: Fasting at 05:00 local (23:30 UTC the day before, so a UTC calendar would misplace it),
// Postprandial at 14:00, Random at 23:45. Values alternate by day (even day index first):
//   Fasting 100 / 140, Postprandial 160 / 200, Random 50 / 250   → 42 readings, each value 7 times.
// Hand-computed:
//   mean 150, median 150 (21st 140, 22nd 160), sample SD √(7·25200/41) = 65.59, CV 43.73 %
//   bands: veryLow 7 (16.7 %), low 0, inRange 21 (50 %), high 14 (33.3 %), veryHigh 0; lows < 70: 7, < 54: 7
//   in target: fasting 7/14 (50 %), postprandial 7/14 (50 %), random 0/14, overall 14/42; in range 70–180: 21/42 (50 %)
//   GMI 3.31 + 0.02392·150 = 6.898 → 6.9 %; eA1c (150 + 46.7)/28.7 = 6.854 → 6.9 %
//   previous period 15–28 Feb: 10 readings of 200 → mean 200
//   Metformin 1-0-1 all 14 days → 28 expected, 21 marked (75 %); Gliclazide 0-0-1 from 8 March → 7 expected, 7 (100 %)
//   glucometer days: Mondays 2 and 9 March and 7 March → 3 planned, 3 with a reading
import type { ReportInput } from '../types.ts';

const KOLKATA_OFFSET_MIN = 330;
/** The UTC instant of a local wall-clock time in Kolkata. */
export function kolkata(date: string, time: string): string {
  const ms = Date.parse(`${date}T${time}:00Z`) - KOLKATA_OFFSET_MIN * 60_000;
  return new Date(ms).toISOString();
}

const day = (i: number) => new Date(Date.UTC(2026, 2, 1 + i)).toISOString().slice(0, 10);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function fixtureInput(): ReportInput {
  const readings: ReportInput['readings'] = [];
  let n = 0;
  for (let i = 0; i < 14; i++) {
    const even = i % 2 === 0;
    readings.push({ _id: uuid(++n), type: 'Fasting', value: even ? 100 : 140, recordedAt: kolkata(day(i), '05:00') });
    readings.push({ _id: uuid(++n), type: 'Postprandial', value: even ? 160 : 200, recordedAt: kolkata(day(i), '14:00') });
    readings.push({ _id: uuid(++n), type: 'Random', value: even ? 50 : 250, recordedAt: kolkata(day(i), '23:45') });
  }
  for (let i = 0; i < 10; i++)
    readings.push({ _id: uuid(++n), type: 'Random', value: 200, recordedAt: kolkata(`2026-02-${String(15 + i).padStart(2, '0')}`, '12:00') });
  // Outside both periods: ignored.
  readings.push({ _id: uuid(n + 1), type: 'Random', value: 400, recordedAt: kolkata('2026-03-15', '08:00') });

  const intakes: ReportInput['intakes'] = [];
  for (let i = 0; i < 14; i++) {
    intakes.push({ prescrNo: 'RX-1', takenAt: kolkata(day(i), '08:00') });
    if (i % 2 === 0) intakes.push({ prescrNo: 'RX-1', takenAt: kolkata(day(i), '20:00') });
    if (i >= 7) intakes.push({ prescrNo: 'RX-2', takenAt: kolkata(day(i), '20:30') });
  }

  return {
    patient: {
      name: 'Asha Verma',
      hospNo: 'H-2040',
      hospital: 'City General Hospital',
      identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1',
      gender: 'Female',
      age: 58,
      timeZone: 'Asia/Kolkata',
      notificationTimings: { breakfast: '08:00', lunch: '13:00', dinner: '20:00' },
      glucometerAlerts: ['Monday', '2026-03-07', '2026-04-01'],
    },
    range: { from: '2026-03-01', to: '2026-03-14' },
    readings,
    medicines: [
      { prescrNo: 'RX-1', name: 'Metformin 500 mg tablet', dose: '1-0-1', startDate: '2025-06-01', endDate: null },
      { prescrNo: 'RX-2', name: 'Gliclazide 40 mg tablet', dose: '0-0-1', startDate: '2026-03-08', endDate: null },
      { prescrNo: 'RX-0', name: 'Glibenclamide 5 mg tablet', dose: '1-0-0', startDate: '2025-01-01', endDate: '2025-12-31' },
    ],
    intakes,
    symptoms: [
      { symptom: 'Fatigue', recordedAt: kolkata('2026-03-02', '10:00') },
      { symptom: 'Fatigue', recordedAt: kolkata('2026-03-05', '10:00') },
      { symptom: 'Fatigue', recordedAt: kolkata('2026-03-11', '10:00') },
      { symptom: 'Shakiness', recordedAt: kolkata('2026-03-03', '00:15') },
      { symptom: 'Headache', recordedAt: kolkata('2026-02-20', '10:00') },
    ],
    labTests: [
      { name: 'HbA1c', value: 7.9, unit: '%', loinc: '4548-4', recordedAt: kolkata('2025-12-10', '09:00') },
      { name: 'HbA1c', value: 7.4, unit: '%', loinc: '4548-4', recordedAt: kolkata('2026-03-10', '09:00') },
      { name: 'Creatinine', value: 1.1, unit: 'mg/dL', loinc: '2160-0', recordedAt: kolkata('2026-03-10', '09:00') },
      { name: 'LDL cholesterol', value: 96, unit: 'mg/dL', loinc: '13457-7', recordedAt: kolkata('2026-03-10', '09:00') },
    ],
    appointments: [
      { doctor: 'Dr. Meera Rao (Endocrinology)', date: kolkata('2026-03-12', '10:30'), notes: 'Review of the fasting readings' },
      { doctor: 'Dr. Meera Rao (Endocrinology)', date: kolkata('2026-06-12', '10:30'), notes: null },
    ],
    generatedAt: '2026-03-15T04:30:00.000Z',
  };
}
