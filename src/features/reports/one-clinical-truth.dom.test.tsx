// One report of one patient, every output: the web report, the staff review's statistics, the PDF's
// text, the CSV and the FHIR bundle must agree on every figure and every row, in either unit. The
// readings sit on the edges where outputs used to disagree (181 mg/dL shown 10.0 mmol/L, 69.5 and
// 53.9 mg/dL, a fasting 79 mg/dL, 10.0 and 13.9 typed in mmol/L, a fasting 4.4 mmol/L), among
// enough ordinary ones for SD, CV and GMI to be shown.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asTaken, type GlucoseUnit, shownGlucose, storedMgDl } from '../../../schemas/glucose-units.ts';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import { buildReport } from '../../../report/build-report.ts';
import { reportCsv } from '../../../report/csv.ts';
import { fhirBundle } from '../../../report/fhir.ts';
import { bandOf, interpretation, targetStatus } from '../../../schemas/judgement.ts';
import { BAND_LABELS, TARGET_LABELS } from '../../../report/labels.ts';
import { renderReportPdf } from '../../../report/pdf.ts';
import { kolkata, fixtureInput } from '../../../report/testing/fixture.ts';
import { pdfText, writeTemp } from '../../../report/testing/pdf-tools.ts';
import type { ReportInput, ReportModel } from '../../../report/types.ts';
import { useReportFormat } from '../../lib/use-report-format.ts';
import { GlucoseStatsCard } from '../staff-review/glucose-stats.tsx';
import { ReportView } from './report-view.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

/** Fourteen days of ordinary readings, and the edge readings on top. */
function input(): ReportInput {
  const base = fixtureInput();
  const readings: ReportInput['readings'] = [];
  let n = 0;
  const add = (type: GlucoseType, day: number, time: string, value: number, typedIn?: GlucoseUnit) => {
    const date = `2026-03-${String(day).padStart(2, '0')}`;
    const mmol = typedIn === 'mmol/L';
    readings.push({
      _id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      type,
      value: mmol ? storedMgDl(value) : value,
      ...(typedIn ? { unit: typedIn, enteredValue: value } : {}),
      recordedAt: kolkata(date, time),
    });
  };
  for (let day = 1; day <= 14; day++) {
    add('Fasting', day, '06:30', 95 + ((day * 7) % 40));
    add('Postprandial', day, '14:00', 140 + ((day * 11) % 60));
    add('Random', day, '21:00', 110 + ((day * 13) % 90));
  }
  add('Postprandial', 2, '15:00', 181, 'mg/dL');
  add('Random', 3, '16:00', 69.5, 'mg/dL');
  add('Random', 4, '03:00', 53.9, 'mg/dL');
  add('Fasting', 5, '07:00', 79, 'mg/dL');
  add('Random', 6, '17:00', 10.0, 'mmol/L');
  add('Random', 7, '18:00', 13.9, 'mmol/L');
  add('Fasting', 8, '07:10', 4.4, 'mmol/L');
  add('Random', 9, '02:00', 2.9, 'mmol/L');
  add('Random', 10, '19:00', 251, 'mg/dL');
  return { ...base, readings };
}

function WebAndStaff({ model }: { model: ReportModel }) {
  const f = useReportFormat(model.unit, model.input.patient.timeZone);
  return (
    <>
      <ReportView model={model} downloads={['pdf', 'csv', 'fhir']} />
      <div data-testid="staff">
        <GlucoseStatsCard model={model} f={f} />
      </div>
    </>
  );
}

const cells = (row: Element | null | undefined) => [...(row?.children ?? [])].map((c) => c.textContent ?? '');
const squash = (s: string) => s.replace(/\s+/g, ' ');
/** A CSV without quoting (nothing in this report needs it): lines → cells; the table after the blank line. */
const csvTable = (text: string) => {
  const rows = text
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','));
  return rows.slice(rows.findIndex((r) => r.length === 1 && r[0] === '') + 1);
};

describe.each(['mg/dL', 'mmol/L'] as const)('one report, every output, in %s', (unit) => {
  it('agrees on every figure and every row', async () => {
    const model = buildReport(input(), unit);
    render(
      <I18nProvider i18n={i18n}>
        <WebAndStaff model={model} />
      </I18nProvider>,
    );
    const pdf = squash(pdfText(writeTemp(await renderReportPdf(model, { locale: 'en' }))));
    const csv = csvTable(reportCsv(model));
    const bundle = fhirBundle(model);
    const observations = bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === 'Observation' && r['performer']);

    // Rows: the CSV, the FHIR bundle and the model hold the same readings; the web, the PDF and the
    // CSV list the same lows.
    expect(csv.slice(1).map((r) => r[6])).toEqual(model.readings.map((r) => new Date(r.recordedAt).toISOString()));
    expect(observations.map((o) => o.id)).toEqual(model.readings.map((r) => r.id));
    const lowWords: string[] = [BAND_LABELS.low.message, BAND_LABELS.veryLow.message];
    const csvLows = csv.slice(1).filter((r) => lowWords.includes(r[4] ?? ''));
    const webLows = within(screen.getByTestId('report-lows-list')).getAllByRole('row').slice(1).map(cells);
    expect(webLows.map((r) => r[2])).toEqual(csvLows.map((r) => r[3]));
    expect(model.lows).toHaveLength(csvLows.length);
    for (const l of csvLows) expect(pdf).toContain(`${l[1]} ${l[2]} ${l[3]}`);

    // Each row: the value written and the words beside it agree, and FHIR agrees in the unit it sends.
    for (const [i, r] of model.readings.entries()) {
      const row = csv[i + 1] ?? [];
      const printed = shownGlucose(r, unit).value;
      expect(Number(row[3])).toBe(printed);
      expect(row[4]).toBe(BAND_LABELS[bandOf(r, unit)].message);
      expect(row[5]).toBe(TARGET_LABELS[targetStatus(r, r.type, unit)].message);
      const o: Record<string, unknown> = observations[i] ?? {};
      const taken = asTaken(r);
      expect(o['valueQuantity']).toMatchObject({ value: taken.value, code: taken.unit });
      expect((o['interpretation'] as { coding: { code: string }[] }[])[0]?.coding[0]?.code).toBe(interpretation(r, r.type, taken.unit));
      // Where the report's unit is the unit it was taken in, FHIR's "N" is the report's "In target".
      if (taken.unit === unit) expect(interpretation(r, r.type, unit) === 'N').toBe(targetStatus(r, r.type, unit) === 'in');
    }

    // Figures: the summary (web), the staff statistics and the PDF print the same.
    const value = (id: string) => screen.getByTestId(id).querySelector('.report-figure-value')?.textContent ?? '';
    const staff = Object.fromEntries(
      within(screen.getByTestId('staff'))
        .getAllByRole('row')
        .slice(1)
        .map((r) => [cells(r)[0], cells(r).slice(1)]),
    );
    const web = Object.fromEntries(
      within(screen.getByTestId('report-by-type'))
        .getAllByRole('row')
        .slice(1)
        .map((r) => [cells(r)[0], cells(r).slice(1)]),
    );
    const all = staff['All readings'] ?? [];
    const [count, mean, inRange, inTarget, below70, below54] = all;
    expect(value('report-count')).toBe(count);
    expect(value('report-mean')).toBe(mean);
    expect(value('report-tir')).toBe(inRange);
    expect(value('report-lows')).toBe(below70);
    expect(web['All readings']).toEqual([
      count,
      mean,
      expect.any(String),
      expect.any(String),
      expect.any(String),
      expect.any(String),
      expect.any(String),
      inTarget,
      below70,
      below54,
    ]);
    for (const tag of ['Fasting', 'Postprandial', 'Random']) {
      const s = staff[tag] ?? [];
      const w = web[tag] ?? [];
      expect([w[0], w[1], w[7], w[8], w[9]]).toEqual([s[0], s[1], s[3], s[4], s[5]]);
    }
    // The PDF's columns: all readings, then fasting, postprandial, random.
    const col = (tag: string) => web[tag] ?? [];
    const tags = ['All readings', 'Fasting', 'Postprandial', 'Random'];
    expect(pdf).toContain(`Readings ${tags.map((t) => col(t)[0]).join(' ')}`);
    expect(pdf).toContain(`Mean (${unit}) ${tags.map((t) => col(t)[1]).join(' ')}`);
    expect(pdf).toContain(`SD (${unit}) ${tags.map((t) => col(t)[3]).join(' ')}`);
    expect(pdf).toContain(`CV (%) ${tags.map((t) => col(t)[4]).join(' ')}`);
    expect(pdf).toContain(`In target ${tags.map((t) => col(t)[7]).join(' ')}`);
    expect(pdf).toContain(`Below ${unit === 'mg/dL' ? '70' : '3.9'} ${tags.map((t) => col(t)[8]).join(' ')}`);
    expect(pdf).toContain(`${model.overall.bands.inRange.count} / ${count}`);
    expect(pdf).toMatch(new RegExp(`In range ${unit === 'mg/dL' ? '70–180' : '3\\.9–10\\.0'}[^%]*${inRange.replace('%', '')}%`));
    expect(value('report-cv')).toBe(col('All readings')[4]);
    expect(value('report-gmi')).not.toBe('–');
    expect(pdf).toContain(value('report-gmi'));
    // Shares: each band's share on the web and in the PDF, with its count.
    for (const band of ['veryLow', 'low', 'inRange', 'high', 'veryHigh'] as const) {
      const row = screen.getByRole('table', { name: /Readings in each glucose range/ }).querySelector(`tr[data-band="${band}"]`);
      const [, share, n] = cells(row);
      expect(pdf).toContain(`${share} (${n})`);
    }
  }, 60_000);
});
