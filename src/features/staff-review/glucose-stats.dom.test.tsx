// The staff review's statistics table, computed by the core (schemas/report/statistics.ts): each
// reading judged by its own type's target, lows below 70 and 54, boundaries included as documented.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { GlucoseStatsCard } from './glucose-stats.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

let n = 0;
const g = (type: GlucoseReading['type'], value: number): GlucoseReading => ({
  _id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  type,
  value,
  recordedAt: '2026-11-20T08:00:00.000Z',
});

function rows(glucose: { fasting: GlucoseReading[]; postprandial: GlucoseReading[]; random: GlucoseReading[] }): Record<string, string[]> {
  render(
    <I18nProvider i18n={i18n}>
      <GlucoseStatsCard glucose={glucose} />
    </I18nProvider>,
  );
  const out: Record<string, string[]> = {};
  for (const tr of screen.getAllByRole('row').slice(1)) {
    const [head, ...cells] = [...tr.children].map((c) => c.textContent ?? '');
    out[head ?? ''] = cells;
  }
  return out;
}

describe('staff review statistics', () => {
  it('has no mean or percentage without readings', () => {
    expect(rows({ fasting: [], postprandial: [], random: [] })['All readings']).toEqual(['0', '–', '–', '0', '0']);
  });

  it('fasting uses 80–130, bounds included', () => {
    // 79 out, 80 in, 130 in, 131 out, 100 in → 3 of 5 = 60 %; mean (79+80+130+131+100)/5 = 104
    const r = rows({ fasting: [79, 80, 130, 131, 100].map((v) => g('Fasting', v)), postprandial: [], random: [] });
    expect(r['Fasting']).toEqual(['5', '104', '60%', '0', '0']);
  });

  it('after a meal is 70 to below 180, random 70–180; lows below 70 and below 54', () => {
    // Postprandial 69 (low), 180 (off the ADA "< 180"), 54 (low, not very low), 179 (in) → 1 of 4
    // Random 70 (in), 181 (out), 53 (very low) → 1 of 3
    const r = rows({ fasting: [], postprandial: [69, 180, 54, 179].map((v) => g('Postprandial', v)), random: [70, 181, 53].map((v) => g('Random', v)) });
    expect(r['Postprandial']).toEqual(['4', '121', '25%', '2', '0']);
    expect(r['Random']).toEqual(['3', '101', '33%', '1', '1']);
    // overall: 2 of 7 on their own targets; mean 786/7 = 112.3
    expect(r['All readings']).toEqual(['7', '112', '29%', '3', '1']);
  });

  it('overall judges each reading by its own type: 140 is out when fasting, in after a meal', () => {
    const r = rows({ fasting: [g('Fasting', 140), g('Fasting', 75)], postprandial: [g('Postprandial', 140)], random: [g('Random', 75)] });
    expect(r['All readings']).toEqual(['4', '108', '50%', '0', '0']);
  });
});
