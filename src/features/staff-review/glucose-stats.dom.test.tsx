// The staff review's statistics table: read from the same report model as the web report and the
// PDF (buildReport), each reading judged as shown in the staff member's unit and against its own
// tag's target, lows below 70 and 54, boundaries included as documented.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GlucoseUnit } from '../../../schemas/glucose-units.ts';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import { buildReport } from '../../../report/build-report.ts';
import { fixtureInput } from '../../../report/testing/fixture.ts';
import type { ReportInput } from '../../../report/types.ts';
import { useReportFormat } from '../../lib/use-report-format.ts';
import { GlucoseStatsCard } from './glucose-stats.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const at = fixtureInput().readings[0]?.recordedAt ?? '';
let n = 0;
const g = (type: GlucoseType, value: number): ReportInput['readings'][number] => ({ _id: `r-${++n}`, type, value, recordedAt: at });

function Card({ readings, unit }: { readings: ReportInput['readings']; unit: GlucoseUnit }) {
  const model = buildReport({ ...fixtureInput(), readings }, unit);
  const f = useReportFormat(unit, model.input.patient.timeZone);
  return <GlucoseStatsCard model={model} f={f} />;
}

function rows(readings: ReportInput['readings'], unit: GlucoseUnit = 'mg/dL'): Record<string, string[]> {
  render(
    <I18nProvider i18n={i18n}>
      <Card readings={readings} unit={unit} />
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
  it('names "In range" and "In target" apart, as the report and the PDF do', () => {
    rows([]);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Type', 'Readings', 'Mean (mg/dL)', 'In range (70–180)', 'In target', 'Below 70', 'Below 54']);
  });

  it('has no mean or percentage without readings', () => {
    expect(rows([])['All readings']).toEqual(['0', '–', '–', '–', '0', '0']);
  });

  it('fasting uses 80–130, bounds included', () => {
    // 79 out, 80 in, 130 in, 131 out, 100 in → 3 of 5 = 60 %; mean (79+80+130+131+100)/5 = 104; all five in range
    const r = rows([79, 80, 130, 131, 100].map((v) => g('Fasting', v)));
    expect(r['Fasting']).toEqual(['5', '104', '100%', '60%', '0', '0']);
  });

  it('after a meal is 70 to below 180, random 70–180; lows below 70 and below 54', () => {
    // Postprandial 69 (low), 180 (off the ADA "< 180"), 54 (low, not very low), 179 (in) → 1 of 4
    // Random 70 (in), 181 (out), 53 (very low) → 1 of 3
    const r = rows([...[69, 180, 54, 179].map((v) => g('Postprandial', v)), ...[70, 181, 53].map((v) => g('Random', v))]);
    expect(r['Postprandial']).toEqual(['4', '121', '50%', '25%', '2', '0']);
    expect(r['Random']).toEqual(['3', '101', '33%', '33%', '1', '1']);
    // overall: 2 of 7 on their own targets, 3 of 7 in range; mean 786/7 = 112.3
    expect(r['All readings']).toEqual(['7', '112', '43%', '29%', '3', '1']);
  });

  it('overall judges each reading by its own type: 140 is out when fasting, in after a meal', () => {
    const r = rows([g('Fasting', 140), g('Fasting', 75), g('Postprandial', 140), g('Random', 75)]);
    expect(r['All readings']).toEqual(['4', '108', '100%', '50%', '0', '0']);
  });

  it('judges as shown in mmol/L: 181 mg/dL prints 10.0 and is in range there', () => {
    const r = rows([g('Random', 181), g('Random', 69)], 'mmol/L');
    expect(r['Random']).toEqual(['2', '6.9', '50%', '50%', '1', '0']);
  });
});
