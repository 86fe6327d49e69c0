import { describe, expect, it } from 'vitest';
import { mgDlOf, storedMgDl } from './glucose-units.ts';
import { enteredMismatch } from './glucose.ts';

describe('a glucose value as typed beside its mg/dL (issue 16)', () => {
  it('stores mmol/L as mg/dL to one decimal, so every typed tenth reads back', () => {
    expect(storedMgDl(10)).toBe(180.2);
    expect(storedMgDl(13.9)).toBe(250.4);
    expect(mgDlOf(126, 'mg/dL')).toBe(126);
    for (let tenth = 12; tenth <= 333; tenth++) {
      const typed = tenth / 10;
      expect(Math.round((storedMgDl(typed) / 18.016) * 10) / 10).toBe(typed);
    }
  });

  it('accepts a reading without a typed value, or with one that is its mg/dL converted', () => {
    expect(enteredMismatch(126, undefined, undefined)).toBeUndefined();
    expect(enteredMismatch(126, null, null)).toBeUndefined();
    expect(enteredMismatch(126, 'mg/dL', 126)).toBeUndefined();
    expect(enteredMismatch(180.2, 'mmol/L', 10)).toBeUndefined();
    expect(enteredMismatch(250.4, 'mmol/L', 13.9)).toBeUndefined();
  });

  it('refuses half of the pair, or a typed value that is not the stored one', () => {
    expect(enteredMismatch(126, 'mg/dL', undefined)).toMatch(/needs the enteredValue/);
    expect(enteredMismatch(126, undefined, 126)).toMatch(/needs the unit/);
    expect(enteredMismatch(180, 'mmol/L', 10)).toBe('value 180 mg/dL is not 10 mmol/L');
    expect(enteredMismatch(127, 'mg/dL', 126)).toBe('value 127 mg/dL is not 126 mg/dL');
    expect(enteredMismatch(126.1, 'mg/dL', 126)).toBeDefined();
  });
});
