// The dashboard's medicines card on the device's real encrypted database (RxDB, memory storage):
// the collection holds ended prescriptions too (the report needs them), and the card offers only the
// active ones, and only the reminders of medicines that have not ended, from the device's own
// today: a medicine whose last day ends at midnight leaves the card then with no pull at all.
import 'fake-indexeddb/auto';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { randomUUID } from 'node:crypto';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { destroyDataKey } from '../../../sync/storage/crypto.ts';
import { PENDING_MEDICINE_TTL_MS } from '../../../sync/storage/collections.ts';
import { openEddyDatabase, type EddyDatabase } from '../../../sync/storage/database.ts';
import { localDateKey } from '../../lib/dates.ts';
import { MedicinesCard } from './medicines-card.tsx';

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

let db: EddyDatabase | undefined;
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await db?.close();
  db = undefined;
  await destroyDataKey();
});

const dayOf = (d: Date, days: number) => localDateKey(new Date(d.getFullYear(), d.getMonth(), d.getDate() + days, 12));

async function seed(now: Date) {
  db = await openEddyDatabase({ name: `medicines-card-${randomUUID()}`, storage: getRxStorageMemory() });
  const today = dayOf(now, 0);
  await db.medicines.bulkInsert([
    { _id: randomUUID(), prescrNo: 'RX-OPEN', name: 'Metformin', dose: '1-0-1', startDate: dayOf(now, -200), endDate: null, version: 1 },
    { _id: randomUUID(), prescrNo: 'RX-LAST-DAY', name: 'Amoxicillin', dose: '1-1-1', startDate: dayOf(now, -7), endDate: today, version: 2 },
    { _id: randomUUID(), prescrNo: 'RX-ENDED', name: 'Sitagliptin', dose: '1-0-0', startDate: dayOf(now, -150), endDate: dayOf(now, -30), version: 3 },
  ]);
  // Arrived a minute apart, so they are listed in this order (the card sorts them by expiry).
  const reminder = (prescrNo: string, name: string, minutesAgo: number) => ({
    _id: randomUUID(),
    time: '20:00',
    prescrNo,
    name,
    dose: '1',
    userId: '100001',
    timestamp: now.getTime() - minutesAgo * 60_000,
    expiry: now.getTime() - minutesAgo * 60_000 + PENDING_MEDICINE_TTL_MS,
  });
  await db.pendingMedicines.bulkInsert([
    reminder('RX-LAST-DAY', 'Amoxicillin', 3),
    reminder('RX-ENDED', 'Sitagliptin', 2),
    reminder('RX-NOT-PULLED-YET', 'Insulin', 1),
  ]);
  return db;
}

/** The names in the card: the reminders waiting first, then the medicines. */
const listed = () =>
  within(screen.getByTestId('medicines'))
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('strong')?.textContent);

describe('the medicines card', () => {
  it('offers the active medicines only, and no reminder of an ended one', async () => {
    const now = new Date();
    const opened = await seed(now);
    render(
      <I18nProvider i18n={i18n}>
        <MedicinesCard db={opened} notify={() => undefined} notifySaved={() => undefined} />
      </I18nProvider>,
    );
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Mark as taken' }).length).toBeGreaterThan(0));
    const pending = within(screen.getByRole('heading', { name: 'Reminders waiting' }).parentElement ?? document.body);
    await waitFor(() => expect(pending.queryAllByRole('listitem').map((li) => li.querySelector('strong')?.textContent)).toEqual(['Amoxicillin', 'Insulin']));
    expect(listed()).toEqual(['Amoxicillin', 'Insulin', 'Amoxicillin', 'Metformin']);
    expect(screen.queryByText('Sitagliptin')).toBeNull();
  });

  it('drops a medicine, and its reminder, when its last day ends at midnight, with no change pulled', async () => {
    // A minute before the device's midnight; only Date and the card's minute timer are faked, so
    // RxDB's own timers run as usual.
    const beforeMidnight = new Date();
    beforeMidnight.setHours(23, 59, 0, 0);
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], now: beforeMidnight });
    const opened = await seed(beforeMidnight);
    render(
      <I18nProvider i18n={i18n}>
        <MedicinesCard db={opened} notify={() => undefined} notifySaved={() => undefined} />
      </I18nProvider>,
    );
    await waitFor(() => expect(listed()).toEqual(['Amoxicillin', 'Insulin', 'Amoxicillin', 'Metformin']));
    await act(async () => {
      vi.advanceTimersByTime(61_000);
    });
    await waitFor(() => expect(listed()).toEqual(['Insulin', 'Metformin']));
    // The prescription is still on the device, as the server sent it, for the report.
    expect((await opened.medicines.find().exec()).map((m) => m.prescrNo).sort()).toEqual(['RX-ENDED', 'RX-LAST-DAY', 'RX-OPEN']);
  });
});
