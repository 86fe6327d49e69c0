import { describe, expect, it } from 'vitest';
import { classifyGlucose } from './targets.ts';

/** A reading typed in mg/dL, decimals and all. */
const typed = (v: number) => ({ value: v, unit: 'mg/dL' as const, enteredValue: v });

describe('glucose targets on the dashboard (judged as shown: schemas/judgement.ts)', () => {
  it('uses the consensus boundaries: < 54, < 70, > 180, > 250 mg/dL', () => {
    expect(classifyGlucose(typed(53.9), 'Random', 'mg/dL')).toBe('very-low');
    expect(classifyGlucose(54, 'Random', 'mg/dL')).toBe('low');
    expect(classifyGlucose(69, 'Random', 'mg/dL')).toBe('low');
    expect(classifyGlucose(70, 'Random', 'mg/dL')).toBe('in-target');
    expect(classifyGlucose(180, 'Random', 'mg/dL')).toBe('in-target');
    expect(classifyGlucose(typed(180.4), 'Random', 'mg/dL')).toBe('high');
    expect(classifyGlucose(181, 'Random', 'mg/dL')).toBe('high');
    expect(classifyGlucose(250, 'Random', 'mg/dL')).toBe('high');
    expect(classifyGlucose(typed(250.1), 'Random', 'mg/dL')).toBe('very-high');
  });

  it('applies the meal targets: fasting 80–130, after a meal 70 to below 180', () => {
    // 75 fasting is in the consensus range but below the fasting target: not "Low", which means below 70.
    expect(classifyGlucose(75, 'Fasting', 'mg/dL')).toBe('below-target');
    expect(classifyGlucose(80, 'Fasting', 'mg/dL')).toBe('in-target');
    expect(classifyGlucose(130, 'Fasting', 'mg/dL')).toBe('in-target');
    expect(classifyGlucose(131, 'Fasting', 'mg/dL')).toBe('above-target');
    expect(classifyGlucose(179, 'Postprandial', 'mg/dL')).toBe('in-target');
    // ADA says below 180 after a meal: 180 itself is in the consensus range but not on target.
    expect(classifyGlucose(180, 'Postprandial', 'mg/dL')).toBe('above-target');
    expect(classifyGlucose(69, 'Postprandial', 'mg/dL')).toBe('low');
    expect(classifyGlucose(185, 'Postprandial', 'mg/dL')).toBe('high');
  });

  it('judges what the patient sees in mmol/L: 181 mg/dL shown 10.0 is in target at random', () => {
    expect(classifyGlucose(181, 'Random', 'mmol/L')).toBe('in-target');
    expect(classifyGlucose(79, 'Fasting', 'mmol/L')).toBe('in-target'); // shown 4.4
  });
});
