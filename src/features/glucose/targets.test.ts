import { describe, expect, it } from 'vitest';
import { classifyGlucose } from './targets.ts';

describe('glucose targets', () => {
  it('uses the consensus boundaries: < 54, < 70, > 180, > 250 mg/dL', () => {
    expect(classifyGlucose(53.9, 'Random')).toBe('very-low');
    expect(classifyGlucose(54, 'Random')).toBe('low');
    expect(classifyGlucose(69, 'Random')).toBe('low');
    expect(classifyGlucose(70, 'Random')).toBe('in-target');
    expect(classifyGlucose(180, 'Random')).toBe('in-target');
    expect(classifyGlucose(180.4, 'Random')).toBe('high');
    expect(classifyGlucose(181, 'Random')).toBe('high');
    expect(classifyGlucose(250, 'Random')).toBe('high');
    expect(classifyGlucose(250.1, 'Random')).toBe('very-high');
  });

  it('applies the ADA meal targets: fasting 80–130, postprandial below 180', () => {
    expect(classifyGlucose(75, 'Fasting')).toBe('low');
    expect(classifyGlucose(80, 'Fasting')).toBe('in-target');
    expect(classifyGlucose(130, 'Fasting')).toBe('in-target');
    expect(classifyGlucose(131, 'Fasting')).toBe('above-target');
    expect(classifyGlucose(179, 'Postprandial')).toBe('in-target');
    // ADA says below 180 after a meal: 180 itself is in the consensus range but not on target.
    expect(classifyGlucose(180, 'Postprandial')).toBe('above-target');
    expect(classifyGlucose(69, 'Postprandial')).toBe('low');
    expect(classifyGlucose(185, 'Postprandial')).toBe('high');
  });
});
