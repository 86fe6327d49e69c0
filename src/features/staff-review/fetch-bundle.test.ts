import { describe, expect, it, vi } from 'vitest';
import { applyReview, fetchReview } from './fetch-bundle.ts';

type Answer = Parameters<typeof applyReview>[1];

const profile = {
  _id: '0190a0b0-0000-7000-8000-0000000000aa',
  name: 'Maria Lopez',
  hospNum: '100001',
  timeZone: 'Europe/Madrid',
  lastSyncAt: '2026-11-30T10:00:00.000Z',
} as Answer['profile'];
const reading = (n: number, type: 'Fasting' | 'Postprandial' | 'Random', recordedAt: string, value = 100) => ({
  _id: `0190a0b0-0000-7000-8000-00000000000${n}`,
  type,
  value,
  recordedAt,
});
const answer = (over: Partial<Answer>): Answer => ({
  hospNo: '100001',
  version: 10,
  asOf: '2026-12-01T10:00:00.000Z',
  full: true,
  profile,
  patient: {
    _id: '0190a0b0-0000-7000-8000-0000000000aa',
    hospNo: '100001',
    name: 'Maria Lopez',
    gender: null,
    age: null,
    address: null,
    hospitalId: '0190a0b0-0000-7000-8000-0000000000bb',
    timeZone: 'Europe/Madrid',
    notificationTimings: { breakfast: '08:00', lunch: '13:00', dinner: '19:00' },
    glucometerAlerts: [],
    hasPassword: true,
    mustChangePassword: false,
    version: 10,
  },
  prescriptions: [],
  glucose: { fasting: [], postprandial: [], random: [] },
  symptoms: { symptoms: [] },
  tests: { tests: [] },
  appointments: { appointments: [] },
  doses: { taken: [] },
  ...over,
});

const whole = applyReview(
  undefined,
  answer({
    glucose: { fasting: [reading(1, 'Fasting', '2026-11-20T07:00:00.000Z')], postprandial: [], random: [reading(2, 'Random', '2026-11-21T22:00:00.000Z', 65)] },
    symptoms: { symptoms: [{ _id: 's1', symptom: 'Thirst', recordedAt: '2026-11-21T09:00:00.000Z' }] },
    doses: { taken: [{ _id: 'd1', prescrNo: 'RX-1', dose: '500 mg', medicineName: 'Metformin', takenAt: '2026-11-20T08:00:00.000Z' }] },
  }),
);

describe('applyReview', () => {
  it('keeps a whole answer as it is, with the version and time it reflects', () => {
    expect(whole.version).toBe(10);
    expect(whole.asOf).toBe('2026-12-01T10:00:00.000Z');
    expect(whole.glucose.random.map((r) => r.value)).toEqual([65]);
    expect(whole.lastSyncAt).toBe('2026-11-30T10:00:00.000Z');
  });

  it('brings the held copy up to date by the changes: new rows in place, changed ones moved, deleted ones gone, newest first', () => {
    const next = applyReview(
      whole,
      answer({
        version: 14,
        full: false,
        // Reading 2 changed its type (Random → Postprandial) and value; reading 3 is new.
        glucose: {
          fasting: [reading(3, 'Fasting', '2026-11-22T07:00:00.000Z', 99)],
          postprandial: [reading(2, 'Postprandial', '2026-11-21T22:00:00.000Z', 180)],
          random: [],
          deleted: [],
        },
        symptoms: { symptoms: [], deleted: ['s1'] },
        doses: { taken: [{ _id: 'd2', prescrNo: 'RX-1', dose: '500 mg', medicineName: 'Metformin', takenAt: '2026-11-21T08:00:00.000Z' }], deleted: [] },
      }),
    );
    expect(next.version).toBe(14);
    expect(next.glucose.fasting.map((r) => r._id.slice(-1))).toEqual(['3', '1']);
    expect(next.glucose.postprandial.map((r) => [r._id.slice(-1), r.value])).toEqual([['2', 180]]);
    expect(next.glucose.random).toEqual([]);
    expect(next.symptoms).toEqual([]);
    expect(next.doses.map((d) => d._id)).toEqual(['d2', 'd1']);
  });

  it('replaces the held copy when the answer is whole (a server restored from a backup)', () => {
    const next = applyReview(whole, answer({ version: 3, full: true }));
    expect(next.version).toBe(3);
    expect(next.glucose.fasting).toEqual([]);
    expect(next.doses).toEqual([]);
  });
});

describe('fetchReview', () => {
  it('asks for the changes since the held version of the same patient, and for the whole review otherwise', async () => {
    const get = vi.fn(async (_path: string, _opts?: { quiet?: boolean }) => answer({ full: true }));
    await fetchReview({ get } as never, '100001', whole);
    await fetchReview({ get } as never, '100002', whole);
    // A copy saved before the review had versions.
    const savedBefore = Object.fromEntries(Object.entries(whole).filter(([k]) => k !== 'version')) as typeof whole;
    await fetchReview({ get } as never, '100001', savedBefore);
    expect(get.mock.calls.map(([path]) => path)).toEqual([
      '/admin/patients/100001/review?since=10',
      '/admin/patients/100002/review',
      '/admin/patients/100001/review',
    ]);
    // Only the refresh of a copy on screen goes without the full-screen loader.
    expect(get.mock.calls.map(([, opts]) => opts?.quiet)).toEqual([true, false, true]);
  });
});
