import { describe, expect, it } from 'vitest';
import { defaultGlucoseType, parseGlucose } from './units.ts';

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
    expect(parseGlucose(' 126 ')).toEqual({ value: 126 });
    expect(parseGlucose('99,5')).toEqual({ value: 99.5 });
    expect(parseGlucose('')).toEqual({ error: 'empty' });
    expect(parseGlucose('12a')).toEqual({ error: 'not-a-number' });
    expect(parseGlucose('-5')).toEqual({ error: 'not-a-number' });
    expect(parseGlucose('19')).toEqual({ error: 'out-of-range' });
    expect(parseGlucose('601')).toEqual({ error: 'out-of-range' });
    expect(parseGlucose('20')).toEqual({ value: 20 });
    expect(parseGlucose('600')).toEqual({ value: 600 });
  });
});
