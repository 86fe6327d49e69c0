import { describe, expect, it } from 'vitest';
import { addDays, daysInclusive, eachDay, isIsoDate, localDate, toLocal, weekdayOf } from './dates.ts';
import { doseMeals, dosesPerDay, glucometerChecks, labSummary, medicineAdherence, symptomFrequency } from './records.ts';

const range = { from: '2026-03-01', to: '2026-03-10' };

describe('dates', () => {
  it('turn instants into local dates and times in the patient’s zone', () => {
    // 19:00 UTC is 00:30 the next day in Kolkata (+05:30) and 14:00 the same day in New York (−05:00).
    expect(toLocal('2026-03-01T19:00:00Z', 'Asia/Kolkata')).toEqual({ date: '2026-03-02', time: '00:30', minutes: 30 });
    expect(toLocal('2026-03-01T19:00:00Z', 'America/New_York')).toEqual({ date: '2026-03-01', time: '14:00', minutes: 840 });
    expect(localDate('2026-03-01T00:00:00Z', 'UTC')).toBe('2026-03-01');
    // After New York's clocks go forward (8 March 2026) the offset is −04:00.
    expect(toLocal('2026-03-09T03:30:00Z', 'America/New_York').time).toBe('23:30');
  });

  it('count and step calendar days across month ends and daylight saving', () => {
    expect(daysInclusive('2026-03-01', '2026-03-01')).toBe(1);
    expect(daysInclusive('2026-02-20', '2026-03-05')).toBe(14);
    expect(daysInclusive('2026-03-05', '2026-03-01')).toBe(0);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(eachDay('2026-03-07', '2026-03-09')).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(weekdayOf('2026-03-01')).toBe('Sunday');
    expect(weekdayOf('2026-03-02')).toBe('Monday');
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-2-3')).toBe(false);
  });
});

describe('dose patterns', () => {
  it.each([
    ['1-0-1', ['breakfast', 'dinner']],
    ['1-1-1', ['breakfast', 'lunch', 'dinner']],
    ['0-0-1', ['dinner']],
    ['½-0-1', ['breakfast', 'dinner']],
    ['0.5-1-0', ['breakfast', 'lunch']],
    ['0,5 - 0 - 0', ['breakfast']],
    ['1/2-0-0', ['breakfast']],
    ['1½-1-0', ['breakfast', 'lunch']],
    ['1-0-1 after food', ['breakfast', 'dinner']],
    ['0-0-0', []],
    ['10 units', ['breakfast', 'lunch', 'dinner']],
    ['1 tablet', ['breakfast', 'lunch', 'dinner']],
    ['1-0', ['breakfast', 'lunch', 'dinner']],
    ['1-0-1-1', ['breakfast', 'lunch', 'dinner']],
  ] as const)('%s → %j', (dose, meals) => {
    expect(doseMeals(dose)).toEqual(meals);
    expect(dosesPerDay(dose)).toBe(meals.length);
  });
});

describe('medicineAdherence', () => {
  const intake = (prescrNo: string, takenAt: string) => ({ prescrNo, takenAt });

  it('expects doses per day × the days the medicine was active in the range up to today', () => {
    const out = medicineAdherence(
      {
        range,
        medicines: [
          { prescrNo: 'A', name: 'Metformin', dose: '1-0-1', startDate: '2026-03-03' },
          { prescrNo: 'B', name: 'Insulin', dose: '10 units', startDate: null, endDate: '2026-03-02' },
          { prescrNo: 'C', name: 'Old', dose: '1-0-0', startDate: '2025-01-01', endDate: '2026-02-01' },
        ],
        intakes: [
          // A: 3 marks on 03-03 count as 2 (its daily doses), 1 on 03-04; 03-02 is before its start, 03-09 after today.
          intake('A', '2026-03-03T08:00:00Z'),
          intake('A', '2026-03-03T08:05:00Z'),
          intake('A', '2026-03-03T20:00:00Z'),
          intake('A', '2026-03-04T08:00:00Z'),
          intake('A', '2026-03-02T08:00:00Z'),
          intake('A', '2026-03-09T08:00:00Z'),
          intake('B', '2026-03-01T08:00:00Z'),
          intake('B', '2026-03-02T13:00:00Z'),
          intake('B', '2026-03-03T13:00:00Z'),
        ],
      },
      'UTC',
      '2026-03-08',
    );
    // A: 03-03..03-08 = 6 days × 2 = 12 expected, 3 taken. B: 03-01..03-02 = 2 days × 3 = 6, 2 taken. C ended before the range.
    // Listed by name, whatever order the device's collection gave them in.
    expect(out).toEqual([
      { prescrNo: 'B', name: 'Insulin', dose: '10 units', expected: 6, taken: 2, percent: (2 / 6) * 100 },
      { prescrNo: 'A', name: 'Metformin', dose: '1-0-1', expected: 12, taken: 3, percent: 25 },
    ]);
  });

  it('counts an intake on the patient’s local day', () => {
    const med = { prescrNo: 'A', name: 'M', dose: '0-0-1' };
    // 20:00 UTC on 03-10 is already 03-11 in Kolkata, outside the range.
    const input = { range, medicines: [med], intakes: [intake('A', '2026-03-10T20:00:00Z')] };
    expect(medicineAdherence(input, 'UTC', '2026-03-20')[0]?.taken).toBe(1);
    expect(medicineAdherence(input, 'Asia/Kolkata', '2026-03-20')[0]?.taken).toBe(0);
  });
});

describe('symptomFrequency', () => {
  it('counts symptoms in the range, most frequent first, then most recent', () => {
    const s = (symptom: string, recordedAt: string) => ({ symptom, recordedAt });
    const out = symptomFrequency(
      [
        s('Fatigue', '2026-03-02T09:00:00Z'),
        s('Headache', '2026-03-03T09:00:00Z'),
        s('Fatigue', '2026-03-05T09:00:00Z'),
        s('Dizziness', '2026-03-06T09:00:00Z'),
        s('Fatigue', '2026-02-27T09:00:00Z'),
      ],
      range,
      'UTC',
    );
    expect(out).toEqual([
      { symptom: 'Fatigue', count: 2, lastAt: '2026-03-05T09:00:00Z' },
      { symptom: 'Dizziness', count: 1, lastAt: '2026-03-06T09:00:00Z' },
      { symptom: 'Headache', count: 1, lastAt: '2026-03-03T09:00:00Z' },
    ]);
  });
});

describe('labSummary', () => {
  it('lists tests with a result in the range, latest vs the one before, and the latest HbA1c', () => {
    const t = (name: string, value: number, recordedAt: string, unit = 'mg/dL') => ({ name, value, unit, recordedAt });
    const out = labSummary(
      [
        t('HbA1c', 7.9, '2025-12-01T08:00:00Z', '%'),
        t('HbA1c', 7.2, '2026-03-05T08:00:00Z', '%'),
        t('hba1c', 7.0, '2026-03-20T08:00:00Z', '%'), // after the range: ignored
        t('LDL cholesterol', 120, '2026-01-01T08:00:00Z'), // only before the range: not listed
        t('Creatinine', 1.1, '2026-03-08T08:00:00Z'),
      ],
      range,
      'UTC',
    );
    expect(out.labs).toEqual([
      { name: 'Creatinine', unit: 'mg/dL', loinc: null, latest: { value: 1.1, recordedAt: '2026-03-08T08:00:00Z' } },
      {
        name: 'HbA1c',
        unit: '%',
        loinc: null,
        latest: { value: 7.2, recordedAt: '2026-03-05T08:00:00Z' },
        previous: { value: 7.9, recordedAt: '2025-12-01T08:00:00Z' },
      },
    ]);
    expect(out.latestHbA1c).toEqual({ value: 7.2, unit: '%', percent: 7.2, recordedAt: '2026-03-05T08:00:00Z' });
  });

  it('shows the latest HbA1c from before the range when none falls in it', () => {
    const out = labSummary([{ name: 'HbA1c', value: 53, unit: 'mmol/mol', recordedAt: '2026-01-15T08:00:00Z' }], range, 'UTC');
    expect(out.labs).toEqual([]);
    expect(out.latestHbA1c?.percent).toBeCloseTo(7.0, 1);
  });
});

describe('glucometerChecks', () => {
  it('plans weekday names (any case) and dates in the range up to today, and finds the days with a reading', () => {
    // Mondays 03-02 and 03-09, the date 03-04; 04-01 is outside, 03-16 (Monday) is after today.
    const out = glucometerChecks(
      ['monday', '2026-03-04', '2026-04-01'],
      { from: '2026-03-01', to: '2026-03-20' },
      '2026-03-12',
      new Set(['2026-03-02', '2026-03-09', '2026-03-10']),
    );
    expect(out).toEqual({ plannedDays: 3, daysWithReading: 2, missedDays: ['2026-03-04'] });
  });

  it('plans nothing without alerts', () => {
    expect(glucometerChecks([], range, '2026-03-12', new Set())).toEqual({ plannedDays: 0, daysWithReading: 0, missedDays: [] });
  });
});
