import { describe, expect, it } from 'vitest';
import { formatGlucose, mgDlOf, plausibleRange, toUnit } from './glucose-units.ts';

describe('glucose units', () => {
  it('converts with 18.016 and one decimal for mmol/L', () => {
    expect(toUnit(126, 'mmol/L')).toBe(7);
    expect(toUnit(100, 'mmol/L')).toBe(5.6);
    expect(toUnit(99.6, 'mg/dL')).toBe(100);
    expect(mgDlOf(7, 'mmol/L')).toBe(126.1);
    expect(mgDlOf(126, 'mg/dL')).toBe(126);
  });

  it('keeps a value typed in mmol/L when it is shown again', () => {
    for (let tenth = 12; tenth <= 333; tenth++) {
      const typed = tenth / 10;
      expect(toUnit(mgDlOf(typed, 'mmol/L'), 'mmol/L')).toBe(typed);
    }
  });

  it('states the plausible range inside 20–600 mg/dL in either unit', () => {
    expect(plausibleRange('mg/dL')).toEqual({ min: 20, max: 600 });
    const { min, max } = plausibleRange('mmol/L');
    expect(min).toBe(1.2);
    expect(max).toBe(33.3);
    expect(mgDlOf(min, 'mmol/L')).toBeGreaterThanOrEqual(20);
    expect(mgDlOf(max, 'mmol/L')).toBeLessThanOrEqual(600);
  });

  it('formats for the locale', () => {
    expect(formatGlucose(126, 'mmol/L', 'es')).toBe('7,0');
    expect(formatGlucose(126, 'mg/dL', 'en')).toBe('126');
  });

  it('shows a reading as it was typed in its own unit, converted in the other (issue 16)', () => {
    const tenMmol = { value: mgDlOf(10, 'mmol/L'), unit: 'mmol/L', enteredValue: 10 } as const;
    expect(tenMmol.value).toBe(180.2);
    // Typed 10.0 mmol/L, looked at in mg/dL, then in mmol/L again: 10.0.
    expect(formatGlucose(tenMmol, 'mg/dL', 'en')).toBe('180');
    expect(formatGlucose(tenMmol, 'mmol/L', 'en')).toBe('10.0');
    // 53.9 mg/dL is very low (< 54): it must never read 54.
    const low = { value: 53.9, unit: 'mg/dL', enteredValue: 53.9 } as const;
    expect(formatGlucose(low, 'mg/dL', 'en')).toBe('53.9');
    expect(formatGlucose(low, 'mmol/L', 'en')).toBe('3.0');
    // Typed with two decimals, shown with them; more are not meter precision.
    expect(formatGlucose({ value: mgDlOf(7.25, 'mmol/L'), unit: 'mmol/L', enteredValue: 7.25 }, 'mmol/L', 'es')).toBe('7,25');
    // An older reading without the typed value: its unit is read from the stored value.
    expect(formatGlucose({ value: 180.2 }, 'mmol/L', 'en')).toBe('10.0');
    expect(formatGlucose({ value: 126 }, 'mg/dL', 'en')).toBe('126');
    // A number (a mean, an edge) is rounded as the unit shows values.
    expect(formatGlucose(123.456, 'mg/dL', 'en')).toBe('123');
    expect(formatGlucose(123.456, 'mmol/L', 'en')).toBe('6.9');
  });
});
