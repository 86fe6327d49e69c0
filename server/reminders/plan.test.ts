import { describe, expect, it } from 'vitest';
import { isActiveOn, mealsDueIn, planReminders, type PlanPatient, type PlanPrescription } from './plan.ts';

const TIMINGS = { breakfast: '08:00', lunch: '13:00', dinner: '20:00' };
const patient = (timeZone: string, glucometerAlerts: string[] = [], notificationTimings = TIMINGS): PlanPatient => ({
  timeZone,
  notificationTimings,
  glucometerAlerts,
});
const rx = (prescrNo: string, dose: string, startDate: string | null = null, endDate: string | null = null): PlanPrescription => ({
  prescrNo,
  name: `Medicine ${prescrNo}`,
  dose,
  startDate,
  endDate,
});
/** The half hour up to `iso`, as a pass at that instant plans it. */
const windowTo = (iso: string): [Date, Date] => [new Date(new Date(iso).getTime() - 30 * 60_000), new Date(iso)];
const keys = (p: PlanPatient, list: PlanPrescription[], iso: string) => planReminders(p, list, ...windowTo(iso)).map((r) => r.dedupeKey);

describe('planReminders', () => {
  it('plans each active medicine at the meals its dose pattern names, due at the local meal time', () => {
    const list = [rx('A', '1-0-1'), rx('B', '0-1-0'), rx('C', '500 mg twice daily')];
    const p = patient('Europe/Madrid');
    // 08:00 in Madrid on 24 November is 07:00 UTC.
    const breakfast = planReminders(p, list, ...windowTo('2026-11-24T07:00:00Z'));
    expect(breakfast.map((r) => r.dedupeKey)).toEqual(['med:A:2026-11-24:breakfast', 'med:C:2026-11-24:breakfast']);
    expect(breakfast[0]).toMatchObject({
      kind: 'medicine',
      dueAt: new Date('2026-11-24T07:00:00Z'),
      localDate: '2026-11-24',
      payload: {
        tag: 'med-A-2026-11-24-breakfast',
        portion: '1',
        data: {
          type: 'medicine',
          prescrNo: 'A',
          medicineName: 'Medicine A',
          dose: '1-0-1',
          time: '08:00',
          meal: 'breakfast',
          notificationTime: '2026-11-24T07:00:00.000Z',
        },
      },
    });
    expect(breakfast[1]?.payload.portion).toBe('500 mg twice daily');
    expect(keys(p, list, '2026-11-24T12:10:00Z')).toEqual(['med:B:2026-11-24:lunch', 'med:C:2026-11-24:lunch']);
    expect(keys(p, list, '2026-11-24T19:00:00Z')).toEqual(['med:A:2026-11-24:dinner', 'med:C:2026-11-24:dinner']);
  });

  it('plans a meal only while it is in the half hour up to the pass (start exclusive, end inclusive)', () => {
    const list = [rx('A', '1-1-1')];
    const p = patient('UTC');
    expect(keys(p, list, '2026-11-24T07:59:59Z')).toEqual([]);
    expect(keys(p, list, '2026-11-24T08:00:00Z')).toEqual(['med:A:2026-11-24:breakfast']);
    expect(keys(p, list, '2026-11-24T08:29:59Z')).toEqual(['med:A:2026-11-24:breakfast']);
    expect(keys(p, list, '2026-11-24T08:30:00Z')).toEqual([]);
  });

  it('works in a half-hour zone (Asia/Kolkata, UTC+05:30)', () => {
    const p = patient('Asia/Kolkata');
    const [r] = planReminders(p, [rx('A', '1-0-0')], ...windowTo('2026-11-24T02:45:00Z'));
    expect(r?.dueAt.toISOString()).toBe('2026-11-24T02:30:00.000Z');
    expect(keys(p, [rx('A', '1-0-0')], '2026-11-24T02:29:00Z')).toEqual([]);
    expect(keys(p, [rx('A', '1-0-0')], '2026-11-24T08:00:00Z')).toEqual([]); // 08:00 UTC is 13:30 there
  });

  it('follows daylight saving: 08:00 in New York is 13:00 UTC the day before the change and 12:00 UTC on it', () => {
    const p = patient('America/New_York');
    const list = [rx('A', '1-0-0')];
    expect(keys(p, list, '2026-03-07T13:00:00Z')).toEqual(['med:A:2026-03-07:breakfast']);
    expect(keys(p, list, '2026-03-08T12:00:00Z')).toEqual(['med:A:2026-03-08:breakfast']);
    expect(keys(p, list, '2026-03-08T13:00:00Z')).toEqual([]);
    // A meal time inside the skipped hour still reminds, an hour later by the wall clock.
    const early = patient('America/New_York', [], { breakfast: '02:30', lunch: '13:00', dinner: '20:00' });
    const [r] = planReminders(early, list, ...windowTo('2026-03-08T07:30:00Z'));
    expect(r?.dueAt.toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // And in the autumn the repeated hour reminds once, not twice.
    const night = patient('America/New_York', [], { breakfast: '01:30', lunch: '13:00', dinner: '20:00' });
    const passes = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2026, 10, 1, 5, 0) + i * 30 * 60_000));
    const planned = passes.flatMap((t) => planReminders(night, list, new Date(t.getTime() - 30 * 60_000), t));
    expect(planned.map((r) => r.dueAt.toISOString())).toEqual(['2026-11-01T05:30:00.000Z']);
  });

  it('plans the meals of both local days when the window crosses local midnight', () => {
    const p = patient('Asia/Kolkata', [], { breakfast: '00:10', lunch: '13:00', dinner: '23:50' });
    // 18:35 UTC is 00:05 on the 25th in Kolkata; the window reaches back to 23:35 on the 24th.
    expect(keys(p, [rx('A', '1-0-1')], '2026-11-24T18:35:00Z')).toEqual(['med:A:2026-11-24:dinner']);
    expect(keys(p, [rx('A', '1-0-1')], '2026-11-24T18:45:00Z')).toEqual(['med:A:2026-11-24:dinner', 'med:A:2026-11-25:breakfast']);
  });

  it('reminds of a weekday glucometer day at breakfast on that weekday of the patient’s own calendar', () => {
    // 2026-11-24 is a Tuesday. At 02:30 UTC it is already Tuesday 08:00 in Kolkata, still Monday in Los Angeles.
    const kolkata = patient('Asia/Kolkata', ['Tuesday']);
    const [g] = planReminders(kolkata, [], ...windowTo('2026-11-24T02:30:00Z'));
    expect(g).toMatchObject({
      kind: 'glucometerAlert',
      dedupeKey: 'gluco:2026-11-24',
      payload: { tag: 'gluco-2026-11-24', data: { type: 'glucometerAlert', time: '08:00', notificationTime: '2026-11-24T02:30:00.000Z' } },
    });
    expect(keys(kolkata, [], '2026-11-24T07:30:00Z')).toEqual([]); // lunch: no alert
    expect(keys(kolkata, [], '2026-11-25T02:30:00Z')).toEqual([]); // Wednesday
    const la = patient('America/Los_Angeles', ['Tuesday']);
    expect(keys(la, [], '2026-11-23T16:00:00Z')).toEqual([]); // Monday 08:00 there
    expect(keys(la, [], '2026-11-24T16:00:00Z')).toEqual(['gluco:2026-11-24']);
  });

  it('reminds of a dated glucometer day only on that date', () => {
    const p = patient('UTC', ['2026-11-26']);
    expect(keys(p, [], '2026-11-26T08:00:00Z')).toEqual(['gluco:2026-11-26']);
    expect(keys(p, [], '2026-11-19T08:00:00Z')).toEqual([]);
    expect(keys(p, [], '2026-12-03T08:00:00Z')).toEqual([]);
  });

  it('reminds only of medicines started and not ended on the patient’s local day', () => {
    const list = [
      rx('OPEN', '1-0-0'),
      rx('STARTS-TODAY', '1-0-0', '2026-11-24'),
      rx('STARTS-TOMORROW', '1-0-0', '2026-11-25'),
      rx('ENDS-TODAY', '1-0-0', null, '2026-11-24'),
      rx('ENDED', '1-0-0', '2026-11-01', '2026-11-23'),
    ];
    expect(keys(patient('UTC'), list, '2026-11-24T08:00:00Z')).toEqual([
      'med:OPEN:2026-11-24:breakfast',
      'med:STARTS-TODAY:2026-11-24:breakfast',
      'med:ENDS-TODAY:2026-11-24:breakfast',
    ]);
    // At 18:00 UTC on the 24th it is already 08:00 on the 25th in Kiritimati (UTC+14):
    // the medicine that ended on the 24th is not due there, the one starting on the 25th is.
    expect(keys(patient('Pacific/Kiritimati'), list, '2026-11-24T18:00:00Z')).toEqual([
      'med:OPEN:2026-11-25:breakfast',
      'med:STARTS-TODAY:2026-11-25:breakfast',
      'med:STARTS-TOMORROW:2026-11-25:breakfast',
    ]);
  });

  it('isActiveOn compares whole local days, both ends inclusive', () => {
    expect(isActiveOn({ startDate: '2026-11-24', endDate: '2026-11-24' }, '2026-11-24')).toBe(true);
    expect(isActiveOn({ startDate: '2026-11-25', endDate: null }, '2026-11-24')).toBe(false);
    expect(isActiveOn({ startDate: null, endDate: '2026-11-23' }, '2026-11-24')).toBe(false);
  });

  it('mealsDueIn lists the meal instants alone (what the scheduler checks before reading prescriptions)', () => {
    expect(mealsDueIn(patient('Europe/Madrid'), ...windowTo('2026-11-24T07:10:00Z'))).toEqual([
      { date: '2026-11-24', meal: 'breakfast', time: '08:00', dueAt: new Date('2026-11-24T07:00:00Z') },
    ]);
  });
});
