import { describe, expect, it } from 'vitest';
import { activeMedicines, isActive, waitingReminders } from './active.ts';

describe('active medicines', () => {
  const now = new Date(2026, 10, 23, 23, 59);
  const afterMidnight = new Date(2026, 10, 24, 0, 1);
  it('keeps a medicine active through the whole of its end date', () => {
    expect(isActive({ endDate: null }, now)).toBe(true);
    expect(isActive({}, now)).toBe(true);
    expect(isActive({ endDate: '2026-11-23' }, now)).toBe(true);
    expect(isActive({ endDate: '2026-12-01' }, now)).toBe(true);
    expect(isActive({ endDate: '2026-11-22' }, now)).toBe(false);
    expect(isActive({ endDate: '2026-11-23' }, afterMidnight)).toBe(false);
  });

  const medicines = [
    { prescrNo: 'RX-3', name: 'Sitagliptin', endDate: '2026-10-24' },
    { prescrNo: 'RX-2', name: 'Metformin', endDate: null },
    { prescrNo: 'RX-1', name: 'Amoxicillin', endDate: '2026-11-23' },
  ];

  it('lists the active ones by name, the ended ones never', () => {
    expect(activeMedicines(medicines, now).map((m) => m.prescrNo)).toEqual(['RX-1', 'RX-2']);
    expect(activeMedicines(medicines, afterMidnight).map((m) => m.prescrNo)).toEqual(['RX-2']);
  });

  it('keeps the reminders of active medicines and of prescriptions not pulled yet, not those of ended ones', () => {
    const pending = [{ prescrNo: 'RX-1' }, { prescrNo: 'RX-2' }, { prescrNo: 'RX-3' }, { prescrNo: 'RX-UNKNOWN' }];
    expect(waitingReminders(pending, medicines, now).map((p) => p.prescrNo)).toEqual(['RX-1', 'RX-2', 'RX-UNKNOWN']);
    expect(waitingReminders(pending, medicines, afterMidnight).map((p) => p.prescrNo)).toEqual(['RX-2', 'RX-UNKNOWN']);
  });

  it('compares prescription numbers as a reminder keeps them, cut to 20 characters', () => {
    const long = [
      { prescrNo: 'RX-2026-CARDIOLOGY-0001', name: 'Atorvastatin', endDate: '2026-10-01' },
      { prescrNo: 'RX-2026-CARDIOLOGY-0002', name: 'Bisoprolol', endDate: '2026-11-02' },
    ];
    expect(waitingReminders([{ prescrNo: 'RX-2026-CARDIOLOGY-0' }], long, now)).toEqual([]);
    // One of two prescriptions whose numbers look the same cut is still active: its reminder stays.
    const stillTaken = { prescrNo: 'RX-2026-CARDIOLOGY-0003', name: 'Aspirin', endDate: null };
    expect(waitingReminders([{ prescrNo: 'RX-2026-CARDIOLOGY-0' }], [...long, stillTaken], now)).toHaveLength(1);
  });
});
