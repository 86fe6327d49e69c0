import { describe, expect, it } from 'vitest';
import { shownLabUnit, withLabUnit } from './lab-unit-text.ts';

describe('shownLabUnit', () => {
  it('prints the body-surface unit with a superscript square metre, set off from its number', () => {
    expect(shownLabUnit('mL/min/1.73m2')).toBe('mL/min/1.73 m²');
    expect(shownLabUnit('mL/min/1.73 m2')).toBe('mL/min/1.73 m²');
    expect(shownLabUnit('mg/m3')).toBe('mg/m³');
  });

  it('leaves every other unit as typed', () => {
    for (const unit of ['%', 'mmol/mol', 'mg/dL', 'µmol/L', 'mIU/L', 'mg/mmol', 'pg/mL', 'mL/min/1.73 m²', 'mm2x', 'cm', 'm23'])
      expect(shownLabUnit(unit)).toBe(unit);
  });

  it('joins a value and its unit, or gives the value alone', () => {
    expect(withLabUnit('75', 'mL/min/1.73m2')).toBe('75 mL/min/1.73 m²');
    expect(withLabUnit('5.6', null)).toBe('5.6');
    expect(withLabUnit('5.6', '')).toBe('5.6');
  });
});
