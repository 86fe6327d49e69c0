import { describe, expect, it } from 'vitest';
import { findSameDayReport, groupByDay, localDayKey, matchSymptoms, parseSymptomName } from './symptom-rules.ts';

const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute);

describe('symptom rules', () => {
  it('accepts 1–100 characters after trimming, with inner spaces collapsed', () => {
    expect(parseSymptomName('  Blurred   vision ')).toEqual({ symptom: 'Blurred vision' });
    expect(parseSymptomName('   ')).toEqual({ error: 'empty' });
    expect(parseSymptomName('x'.repeat(100))).toEqual({ symptom: 'x'.repeat(100) });
    expect(parseSymptomName(`  ${'x'.repeat(101)} `)).toEqual({ error: 'too-long' });
  });

  it('finds the same symptom on the same local day only, whatever its case and spacing', () => {
    const reports = [{ symptom: 'Headache', recordedAt: at(22, 8, 15).toISOString() }];
    expect(findSameDayReport(reports, '  headache ', at(22, 23, 59))).toBeDefined();
    expect(findSameDayReport(reports, 'Headache', at(22, 0, 0))).toBeDefined();
    expect(findSameDayReport(reports, 'Headache', at(23, 0, 0))).toBeUndefined();
    expect(findSameDayReport(reports, 'Headache', at(21, 23, 59))).toBeUndefined();
    expect(findSameDayReport(reports, 'Dizziness', at(22, 9))).toBeUndefined();
  });

  it('suggests names containing every typed word, those starting with it first', () => {
    const names = ['Blurred vision', 'Foot pain', 'Foot ulcer or sore', 'Chest pain', 'Headache'];
    expect(matchSymptoms(names, 'pain')).toEqual(['Foot pain', 'Chest pain']);
    expect(matchSymptoms(names, 'che')).toEqual(['Chest pain', 'Headache']);
    expect(matchSymptoms(names, 'foot SORE')).toEqual(['Foot ulcer or sore']);
    expect(matchSymptoms(names, ' ')).toEqual(names);
    expect(matchSymptoms(names, 'xyz')).toEqual([]);
  });

  it('groups by local day, newest day and newest report first', () => {
    const r = (id: string, d: Date) => ({ _id: id, symptom: id, recordedAt: d.toISOString() });
    const groups = groupByDay([r('a', at(20, 9)), r('b', at(22, 7)), r('c', at(22, 21)), r('d', at(21, 12))]);
    expect(groups.map((g) => [g.day, g.reports.map((x) => x._id)])).toEqual([
      [localDayKey(at(22, 0)), ['c', 'b']],
      [localDayKey(at(21, 0)), ['d']],
      [localDayKey(at(20, 0)), ['a']],
    ]);
  });
});
