// Issue 46, item 3: a worklist row that changed since the list was opened is marked Updated.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WorklistPatient } from './types.ts';
import { UpdatedSinceOpenStatus, useUpdatedSinceOpen } from './updated-since-open.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const patient = (hospNo: string, severeLows: number, lastReadingAt = '2026-12-01T07:00:00.000Z'): WorklistPatient =>
  ({
    hospNo,
    name: `Patient ${hospNo}`,
    reasons: severeLows > 0 ? [{ code: 'severe-low', text: '', value: severeLows }] : [],
    lastReadingAt,
    lastSyncAt: null,
  }) as WorklistPatient;

const OPENED = new Date().toISOString();

function List({ listKey, patients }: { listKey: string; patients: WorklistPatient[] | undefined }) {
  const updated = useUpdatedSinceOpen(listKey, patients && { patients, computedAt: OPENED });
  return (
    <I18nProvider i18n={i18n}>
      <UpdatedSinceOpenStatus count={updated.size} />
      <p data-testid="updated">{[...updated].sort().join(',')}</p>
    </I18nProvider>
  );
}

describe('worklist rows updated since the list was opened', () => {
  it('marks a row whose reasons or last reading changed; a row first seen on another page is not; another period starts over', () => {
    const { rerender } = render(<List listKey="h1 14" patients={undefined} />);
    expect(screen.getByTestId('updated').textContent).toBe('');
    rerender(<List listKey="h1 14" patients={[patient('100001', 0), patient('100002', 1)]} />);
    expect(screen.getByTestId('updated').textContent).toBe('');
    // A new severe low for 100001, a later reading for 100002, and 100003 seen for the first time.
    rerender(<List listKey="h1 14" patients={[patient('100001', 1), patient('100002', 1, '2026-12-02T07:00:00.000Z'), patient('100003', 2)]} />);
    expect(screen.getByTestId('updated').textContent).toBe('100001,100002');
    expect(screen.getByRole('status').textContent).toBe('2 patients changed since you opened this list, marked Updated.');
    // A patient moved up onto the page by a reading taken after the list was opened is marked too.
    const now = new Date(Date.now() + 1_000).toISOString();
    rerender(<List listKey="h1 14" patients={[patient('100004', 1, now), patient('100001', 1), patient('100003', 2)]} />);
    expect(screen.getByTestId('updated').textContent).toBe('100001,100004');
    rerender(<List listKey="h1 30" patients={[patient('100001', 1)]} />);
    expect(screen.getByTestId('updated').textContent).toBe('');
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
