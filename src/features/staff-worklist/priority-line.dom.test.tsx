// The line under a worklist patient's reasons that says why they stand where they do, in the staff
// member's unit with the consensus levels as published in it (54 mg/dL = 3.0 mmol/L, 70 = 3.9).
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setGlucoseUnit } from '../../lib/glucose-unit.ts';
import { PriorityLine } from './priority-line.tsx';
import type { WorklistPatient } from './types.ts';

beforeAll(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));
afterEach(() => {
  cleanup();
  setGlucoseUnit('mg/dL');
});

const patient = (reasons: WorklistPatient['reasons'], priority: WorklistPatient['priority']): WorklistPatient => ({
  hospNo: '301201',
  name: 'Aisha Rahman',
  reasons,
  ...(priority ? { priority } : {}),
  lastReadingAt: null,
  lastSyncAt: null,
});
const line = (p: WorklistPatient) =>
  render(
    <I18nProvider i18n={i18n}>
      <PriorityLine patient={p} days={14} />
    </I18nProvider>,
  ).container.textContent;

const severe = patient(
  [
    { code: 'severe-low', value: 45, text: '' },
    { code: 'low-time', value: 7, text: '' },
  ],
  { rank: 1, tier: 'severe-low', weight: 57.3, count: 2, outOf: 30, summary: '' },
);
const lowTime = patient([{ code: 'low-time', value: 13.3, text: '' }], { rank: 2, tier: 'low-time', weight: 4.2, count: 6, outOf: 45, summary: '' });

describe('PriorityLine', () => {
  it('names the reason that placed the patient and the counts behind it, in mg/dL', () => {
    expect(line(severe)).toBe('Ranked by: 2 readings below 54 mg/dL, lowest 45 mg/dL');
    expect(line(lowTime)).toBe('Ranked by: 6 of 45 readings below 70 mg/dL (13.3%; target under 4%)');
  });

  it('in mmol/L, with the levels as the consensus publishes them', () => {
    setGlucoseUnit('mmol/L');
    expect(line(severe)).toBe('Ranked by: 2 readings below 3.0 mmol/L, lowest 2.5 mmol/L');
    expect(line(lowTime)).toBe('Ranked by: 6 of 45 readings below 3.9 mmol/L (13.3%; target under 4%)');
  });

  it('never prints a severe low at or above the level it is named under', () => {
    const edge = patient([{ code: 'severe-low', value: 53.9, text: '' }], { rank: 1, tier: 'severe-low', weight: 2, count: 1, outOf: 10, summary: '' });
    expect(line(edge)).toBe('Ranked by: 1 reading below 54 mg/dL, lowest 53.9 mg/dL');
    setGlucoseUnit('mmol/L');
    expect(line(edge)).toBe('Ranked by: 1 reading below 3.0 mmol/L, lowest 2.99 mmol/L');
  });

  it('words each other reason, and says nothing without one or on a page kept from before', () => {
    expect(line(patient([{ code: 'no-data', value: null, text: '' }], { rank: 3, tier: 'no-data', weight: 0.2, count: 0, outOf: null, summary: '' }))).toBe(
      'Ranked by: no reading since registration today',
    );
    expect(line(patient([{ code: 'no-data', value: 10, text: '' }], { rank: 3, tier: 'no-data', weight: 10.2, count: 10, outOf: null, summary: '' }))).toBe(
      'Ranked by: no reading for 10 days',
    );
    expect(line(patient([{ code: 'low-tir', value: 30, text: '' }], { rank: 4, tier: 'low-tir', weight: 8, count: 12, outOf: 40, summary: '' }))).toBe(
      'Ranked by: 12 of 40 readings in range 70–180 mg/dL (30%; under 50%)',
    );
    expect(
      line(patient([{ code: 'missed-doses', value: 50, text: '' }], { rank: 5, tier: 'missed-doses', weight: 18, count: 30, outOf: 60, summary: '' })),
    ).toBe('Ranked by: 30 of 60 doses marked taken (50%; under 80%)');
    expect(
      line(patient([{ code: 'rising-mean', value: 18, text: '' }], { rank: 6, tier: 'rising-mean', weight: 18, count: null, outOf: null, summary: '' })),
    ).toBe('Ranked by: mean up 18 mg/dL on the previous 14 days');
    expect(line(patient([{ code: 'sparse-data', value: 4, text: '' }], { rank: 7, tier: 'sparse-data', weight: 10, count: 4, outOf: 14, summary: '' }))).toBe(
      'Ranked by: readings on only 4 of 14 days',
    );
    expect(line(patient([], { rank: 8, tier: null, weight: 0, count: null, outOf: null, summary: '' }))).toBe('');
    expect(line(patient([{ code: 'low-time', value: 13.3, text: '' }], undefined))).toBe('');
  });
});
