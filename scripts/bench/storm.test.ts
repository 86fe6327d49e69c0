import { describe, expect, it } from 'vitest';
import { tally, type HeldReading, type Write } from './storm.ts';

const write = (id: string, value: number): Write => ({ _id: id, mutationId: `d:${id}`, type: 'Fasting', value, recordedAt: '2026-11-27T08:00:00.000Z' });
const row = (id: string, patientId: string, value: number, recordedAt = '2026-11-27T08:00:00.000Z'): HeldReading => ({
  id,
  patientId,
  type: 'Fasting',
  value,
  recordedAt: new Date(recordedAt),
});
const devices = [
  { patientId: 'p1', writes: [write('a', 100), write('b', 110)] },
  { patientId: 'p2', writes: [write('c', 120)] },
];

describe('the storm tally', () => {
  it('finds nothing wrong when the server holds each write once, as written', () => {
    expect(tally(devices, [row('a', 'p1', 100), row('b', 'p1', 110), row('c', 'p2', 120)])).toEqual({ lost: 0, duplicated: 0 });
  });

  it('counts a missing write, and one held with another value or time, as lost', () => {
    expect(tally(devices, [row('a', 'p1', 101), row('c', 'p2', 120, '2026-11-27T08:00:00.001Z')])).toEqual({ lost: 3, duplicated: 0 });
  });

  it('counts a write held twice, and a row no write explains, as duplicated', () => {
    expect(tally(devices, [row('a', 'p1', 100), row('a', 'p1', 100), row('b', 'p1', 110), row('c', 'p2', 120), row('x', 'p2', 120)])).toEqual({
      lost: 0,
      duplicated: 2,
    });
  });
});
