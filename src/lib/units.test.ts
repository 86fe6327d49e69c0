import { describe, expect, it } from 'vitest';
import { formatGlucose, plausibleRange, toDisplay, toMgDl } from './units.ts';

describe('glucose units', () => {
  it('converts with 18.016 and one decimal for mmol/L', () => {
    expect(toDisplay(126, 'mmol/L')).toBe(7);
    expect(toDisplay(100, 'mmol/L')).toBe(5.6);
    expect(toDisplay(99.6, 'mg/dL')).toBe(100);
    expect(toMgDl(7, 'mmol/L')).toBe(126.1);
    expect(toMgDl(126, 'mg/dL')).toBe(126);
  });

  it('keeps a value typed in mmol/L when it is shown again', () => {
    for (let tenth = 12; tenth <= 333; tenth++) {
      const typed = tenth / 10;
      expect(toDisplay(toMgDl(typed, 'mmol/L'), 'mmol/L')).toBe(typed);
    }
  });

  it('states the plausible range inside 20–600 mg/dL in either unit', () => {
    expect(plausibleRange('mg/dL')).toEqual({ min: 20, max: 600 });
    const { min, max } = plausibleRange('mmol/L');
    expect(min).toBe(1.2);
    expect(max).toBe(33.3);
    expect(toMgDl(min, 'mmol/L')).toBeGreaterThanOrEqual(20);
    expect(toMgDl(max, 'mmol/L')).toBeLessThanOrEqual(600);
  });

  it('formats for the locale', () => {
    expect(formatGlucose(126, 'mmol/L', 'es')).toBe('7,0');
    expect(formatGlucose(126, 'mg/dL', 'en')).toBe('126');
  });
});
