// Issue 46, item 3: what arrived since the clinician opened the review is marked New in place.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NewSinceOpen, NewSinceOpenStatus, NewTag, arrivedSince, entryIds, useNewSinceOpen } from './new-since-open.tsx';
import type { ReviewBundle } from './types.ts';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const reading = (id: string) => ({ _id: id, type: 'Fasting' as const, value: 120, recordedAt: '2026-12-01T07:00:00.000Z' });
const bundle = (hospNo: string, readings: string[], symptoms: string[] = []): ReviewBundle => ({
  hospNo,
  profile: { name: 'Maria Lopez', hospNum: hospNo },
  glucose: { fasting: readings.map(reading), postprandial: [], random: [] },
  symptoms: symptoms.map((id) => ({ _id: id, symptom: 'Headache', recordedAt: '2026-12-01T07:00:00.000Z' })),
  tests: [],
  appointments: [],
  prescriptions: [],
  doses: [],
  lastSyncAt: null,
});

function Review({ b }: { b: ReviewBundle }) {
  const arrived = useNewSinceOpen(b.hospNo, b);
  return (
    <NewSinceOpen.Provider value={arrived}>
      <NewSinceOpenStatus />
      <ul>
        {b.glucose.fasting.map((r) => (
          <li key={r._id} data-testid={r._id}>
            {r.value} <NewTag ids={[r._id]} />
          </li>
        ))}
        <li data-testid="symptoms">
          Symptoms <NewTag ids={b.symptoms.map((s) => s._id)} />
        </li>
      </ul>
    </NewSinceOpen.Provider>
  );
}

const wrap = (b: ReviewBundle) => (
  <I18nProvider i18n={i18n}>
    <Review b={b} />
  </I18nProvider>
);

describe('entries that arrived since the review was opened', () => {
  it('are those of the review now that the first one shown did not have', () => {
    const first = entryIds(bundle('100001', ['a', 'b'], ['s1']));
    expect([...arrivedSince(first, bundle('100001', ['c', 'a'], ['s1', 's2']))].sort()).toEqual(['c', 's2']);
    expect(arrivedSince(first, bundle('100001', ['a'], []))).toEqual(new Set());
  });

  it('are marked New where they appear and counted once; another patient starts over', () => {
    const { rerender } = render(wrap(bundle('100001', ['a', 'b'], ['s1'])));
    expect(screen.queryByText('New')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
    rerender(wrap(bundle('100001', ['c', 'a', 'b'], ['s1', 's2'])));
    expect(screen.getByTestId('c').textContent).toContain('New');
    expect(screen.getByTestId('a').textContent).not.toContain('New');
    expect(screen.getByTestId('symptoms').textContent).toContain('New');
    expect(screen.getByRole('status').textContent).toBe('2 entries arrived since you opened this review, marked New.');
    // Another patient: what is shown first is the baseline again.
    rerender(wrap(bundle('100002', ['x'])));
    expect(screen.queryByText('New')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
