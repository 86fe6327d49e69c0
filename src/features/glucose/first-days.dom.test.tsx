// The dashboard reads its first 14 days before its 90 (src/routes/app/index.tsx): while it holds
// only those, the trend and the lists must not count, draw or call empty what is still to come.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { GlucoseLists } from './glucose-lists.tsx';
import { TrendChart } from './trend-chart.tsx';

vi.mock('./trend-canvas.tsx', () => ({ default: () => <div data-testid="chart">chart</div> }));

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const DAY = 86_400_000;
const now = Date.now();
const reading = (daysAgo: number, type: GlucoseReading['type'] = 'Random'): GlucoseReading => ({
  _id: `r-${daysAgo}-${type}`,
  type,
  value: 120,
  recordedAt: new Date(now - daysAgo * DAY).toISOString(),
  updatedAt: new Date(now - daysAgo * DAY).toISOString(),
});
/** Eight Random readings over the last 14 days. */
const firstDays = [1, 2, 3, 5, 7, 9, 11, 13].map((d) => reading(d));
const withI18n = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

describe('the trend while only the first days are read', () => {
  it('shows its 14 days, and waits for the rest on a longer period instead of counting part of it', () => {
    withI18n(<TrendChart readings={firstDays} completeFrom={now - 14 * DAY - 1000} />);
    expect(screen.getByText(/^8 readings in the last 14 days/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText('90 days'));
    expect(screen.getByRole('status').textContent).toBe('Loading your readings…');
    expect(screen.queryByText(/readings in the last 90 days/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show as table' })).toBeNull();
    fireEvent.click(screen.getByLabelText('7 days'));
    expect(screen.getByText(/^4 readings in the last 7 days/)).toBeTruthy();
  });

  it('counts a longer period once every reading of it is there', () => {
    withI18n(<TrendChart readings={[...firstDays, reading(40), reading(80)]} completeFrom={now - 90 * DAY - 1000} />);
    fireEvent.click(screen.getByLabelText('90 days'));
    expect(screen.getByText(/^10 readings in the last 90 days/)).toBeTruthy();
  });
});

describe('the lists while only the first days are read', () => {
  const lists = (complete: boolean) => <GlucoseLists readings={firstDays} complete={complete} collection={undefined} notify={() => undefined} />;

  it('neither calls a list empty nor counts the older readings yet', () => {
    withI18n(lists(false));
    const fasting = screen.getByTestId('glucose-list-Fasting');
    expect(fasting.getAttribute('aria-busy')).toBe('true');
    expect(fasting.textContent).toContain('Loading your readings…');
    expect(fasting.textContent).not.toContain('No readings yet');
    const random = screen.getByTestId('glucose-list-Random');
    expect(random.querySelectorAll('li')).toHaveLength(5);
    expect(screen.queryByRole('button', { name: /^Show more/ })).toBeNull();
  });

  it('says so and offers the older ones once complete', () => {
    withI18n(lists(true));
    expect(screen.getByTestId('glucose-list-Fasting').getAttribute('aria-busy')).toBeNull();
    expect(screen.getByTestId('glucose-list-Fasting').textContent).toContain('No readings yet');
    expect(screen.getByRole('button', { name: 'Show more (3 older)' })).toBeTruthy();
  });
});
