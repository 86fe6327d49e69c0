// The report on screen against the core's hand-computed data set (report/testing/fixture.ts):
// the numbers shown are buildReport's, in the chosen unit, and the range picker says what is wrong.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../../report/build-report.ts';
import { fixtureInput } from '../../../report/testing/fixture.ts';
import type { DateRange } from './range.ts';
import { RangePicker } from './range-picker.tsx';
import { ReportView } from './report-view.tsx';

const wrap = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

const invalidParts = (label: string) =>
  [...screen.getByRole('group', { name: label }).querySelectorAll('[role="spinbutton"]')].map((part) => part.getAttribute('aria-invalid'));

/** Types a day into a date field (React Aria's: a group of spin buttons) part by part, as a keyboard does. */
function typeDate(label: string, day: string): void {
  const field = screen.getByRole('group', { name: label });
  const [year, month, date] = day.split('-') as [string, string, string];
  for (const [type, digits] of [
    ['year', year],
    ['month', month],
    ['day', date],
  ] as const) {
    const part = field.querySelector<HTMLElement>(`[data-type="${type}"]`);
    if (!part) throw new Error(`the ${label} field has no ${type}`);
    act(() => part.focus());
    for (const key of digits) fireEvent(part, new InputEvent('beforeinput', { inputType: 'insertText', data: key, bubbles: true, cancelable: true }));
  }
}

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const figure = (id: string) => screen.getByTestId(id).textContent ?? '';

describe('report view', () => {
  it('shows buildReport numbers with the previous period and the A1c estimate beside the lab HbA1c', () => {
    wrap(<ReportView model={buildReport(fixtureInput(), 'mg/dL')} downloads={['pdf', 'csv']} />);
    expect(screen.getByRole('heading', { name: 'Asha Verma' })).toBeTruthy();
    expect(screen.getByTestId('report-hospno').textContent).toBe('H-2040');
    expect(figure('report-mean')).toBe('Average glucose (mg/dL)150Before: 200 (−50)');
    expect(screen.getByText(/^“Before” is the previous 14 days/).textContent).toBe('“Before” is the previous 14 days, Feb 15, 2026 – Feb 28, 2026.');
    expect(figure('report-tir')).toContain('50%');
    expect(figure('report-lows')).toContain('7');
    expect(figure('report-count')).toContain('42');
    expect(figure('report-gmi')).toContain('6.9%');
    expect(figure('report-gmi')).toMatch(/Latest lab HbA1c up to .+2026: 7\.4%/);
    // CV with one decimal, as the PDF prints it: 43.7 % is never shown as 44 %.
    expect(figure('report-cv')).toContain('43.7%');
    const overall = within(screen.getByTestId('report-by-type')).getByText('All readings').closest('tr');
    // count, mean, median, SD, CV, min, max, in target (each by its own tag: 14 of 42), below 70, below 54
    expect([...(overall?.children ?? [])].map((c) => c.textContent)).toEqual(['All readings', '42', '150', '150', '66', '43.7%', '50', '250', '33%', '7', '7']);
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download FHIR bundle' })).toBeNull();
    expect(screen.getByTestId('report-adherence').textContent).toContain('21 / 28');
    expect(screen.getByTestId('report-checks').textContent).toBe('Checked on 3 of 3 planned days.');
    // The daily profile (issue 16): fasting at 05:00, 7 × 100 and 7 × 140: median 120, middle half
    // 100–140; no band of the fixture has 1 to 4 readings, so none says "too few".
    const fasting = screen.getByText('03:00–06:00').closest('tr');
    expect([...(fasting?.children ?? [])].map((c) => c.textContent)).toEqual(['03:00–06:00', '14', '120', '100–140', '100', '140']);
    expect(screen.queryByText('too few readings')).toBeNull();
    // Every low with the symptoms of its day (issue 16): the seven 50 mg/dL random readings.
    const lows = within(screen.getByTestId('report-lows-list')).getAllByRole('row').slice(1);
    expect(lows).toHaveLength(7);
    expect([...(lows[1]?.children ?? [])].map((c) => c.textContent)).toEqual(['Mar 3, 2026, 11:45 PM', 'Random', '50', 'Shakiness']);
    expect(screen.getByRole('heading', { name: 'Every low (below 70 mg/dL)' })).toBeTruthy();
  });

  it('says where the daily profile has too few readings to draw (issue 16)', () => {
    const input = fixtureInput();
    wrap(
      <ReportView
        model={buildReport({ ...input, readings: input.readings.filter((r) => r.type !== 'Fasting' || r.recordedAt < '2026-03-04') }, 'mg/dL')}
        downloads={['pdf']}
      />,
    );
    const fasting = screen.getByText('03:00–06:00').closest('tr');
    expect([...(fasting?.children ?? [])].map((c) => c.textContent)).toEqual(['03:00–06:00', '4', 'too few readings', '100', '140']);
  });

  it('says in words why the estimate is not shown, and converts to mmol/L', () => {
    const input = fixtureInput();
    // Two weeks become one: 21 readings, fewer than the 30 an estimate needs.
    const model = buildReport({ ...input, range: { from: '2026-03-01', to: '2026-03-07' } }, 'mmol/L');
    wrap(<ReportView model={model} downloads={['pdf', 'fhir']} />);
    expect(figure('report-gmi')).toContain('Not shown: fewer than 30 readings');
    expect(figure('report-cv')).toContain('needs at least 30 readings');
    expect(figure('report-mean')).toContain('Average glucose (mmol/L)');
    expect(screen.getByRole('button', { name: 'Download FHIR bundle' })).toBeTruthy();
  });
});

function Picker({ today }: { today: string }) {
  const [range, setRange] = useState<DateRange>({ from: '2026-11-17', to: '2026-11-30' });
  return (
    <>
      <RangePicker today={today} value={range} onChange={setRange} />
      <output data-testid="chosen">{`${range.from}/${range.to}`}</output>
    </>
  );
}

describe('range picker', () => {
  it('applies presets at once and a custom range only when it is valid', () => {
    wrap(<Picker today="2026-11-30" />);
    expect(screen.getByLabelText('14 days')).toHaveProperty('checked', true);
    fireEvent.click(screen.getByLabelText('30 days'));
    expect(screen.getByTestId('chosen').textContent).toBe('2026-11-01/2026-11-30');

    fireEvent.click(screen.getByLabelText('Custom'));
    typeDate('From', '2026-11-20');
    typeDate('To', '2026-11-10');
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect(screen.getByText('The first day must be on or before the last day.')).toBeTruthy();
    // Each part of the field is a spin button, and each says the value is wrong.
    expect(invalidParts('To')).toEqual(['true', 'true', 'true']);
    expect(screen.getByTestId('chosen').textContent).toBe('2026-11-01/2026-11-30');

    typeDate('To', '2026-12-01');
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect(screen.getByText('The last day cannot be in the future (today is 2026-11-30).')).toBeTruthy();

    typeDate('To', '2026-11-25');
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect(screen.getByTestId('chosen').textContent).toBe('2026-11-20/2026-11-25');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(invalidParts('To')).toEqual([null, null, null]);
  });
});
