import { describe, expect, it } from 'vitest';
import { checkGlucose, defaultGlucoseType } from './units.ts';

describe('glucose input', () => {
  it('suggests the meal tag from the time of day', () => {
    const at = (h: number) => new Date(2026, 10, 22, h, 30);
    expect(defaultGlucoseType(at(7))).toBe('Fasting');
    expect(defaultGlucoseType(at(14))).toBe('Postprandial');
    expect(defaultGlucoseType(at(21))).toBe('Postprandial');
    expect(defaultGlucoseType(at(11))).toBe('Random');
    expect(defaultGlucoseType(at(2))).toBe('Random');
  });

  it('accepts plausible mg/dL values only', () => {
    expect(checkGlucose(' 126 ', 'mg/dL')).toEqual({ kind: 'ok', value: 126, mgdl: 126 });
    expect(checkGlucose('', 'mg/dL')).toEqual({ kind: 'error', error: 'empty' });
    expect(checkGlucose('12a', 'mg/dL')).toEqual({ kind: 'error', error: 'not-a-number' });
    expect(checkGlucose('-5', 'mg/dL')).toEqual({ kind: 'error', error: 'not-a-number' });
    expect(checkGlucose('601', 'mg/dL')).toEqual({ kind: 'error', error: 'out-of-range' });
    expect(checkGlucose('0.5', 'mg/dL')).toEqual({ kind: 'error', error: 'out-of-range' });
    expect(checkGlucose('40', 'mg/dL')).toEqual({ kind: 'ok', value: 40, mgdl: 40 });
    expect(checkGlucose('600', 'mg/dL')).toEqual({ kind: 'ok', value: 600, mgdl: 600 });
  });

  it('asks when a number looks like the other unit', () => {
    // 6.5 is impossible in mg/dL and an ordinary mmol/L reading.
    expect(checkGlucose('6,5', 'mg/dL')).toEqual({ kind: 'confirm-unit', value: 6.5, other: 'mmol/L', asOther: 117.1, asTyped: undefined });
    // 25 mg/dL is possible (a severe low) but 25 mmol/L is a common high: ask, offering both.
    expect(checkGlucose('25', 'mg/dL')).toMatchObject({ kind: 'confirm-unit', asTyped: 25, asOther: 450.4 });
    // 126 while in mmol/L is 2,270 mg/dL: it must be mg/dL.
    expect(checkGlucose('126', 'mmol/L')).toEqual({ kind: 'confirm-unit', value: 126, other: 'mg/dL', asOther: 126, asTyped: undefined });
    expect(checkGlucose('7.0', 'mmol/L')).toEqual({ kind: 'ok', value: 7, mgdl: 126.1 });
    expect(checkGlucose('34', 'mmol/L')).toEqual({ kind: 'confirm-unit', value: 34, other: 'mg/dL', asOther: 34, asTyped: undefined });
    expect(checkGlucose('700', 'mmol/L')).toEqual({ kind: 'error', error: 'out-of-range' });
    expect(checkGlucose('1', 'mmol/L')).toEqual({ kind: 'error', error: 'out-of-range' });
  });
});
