import { describe, expect, it } from 'vitest';
import type { GlucoseReading } from '../schemas/glucose.ts';
import { glucoseMapping } from './glucose-sync.ts';

const reading = (more: Partial<GlucoseReading> = {}) => ({
  _id: '0190a8a0-0000-7000-8000-000000000001',
  type: 'Random' as const,
  value: 126,
  recordedAt: '2026-11-22T17:43:00.000Z',
  _deleted: false,
  ...more,
});

const bodyOf = (op: ReturnType<typeof glucoseMapping.toOp>) => {
  if (!op || Array.isArray(op)) throw new Error('one operation expected');
  return op.body;
};

describe('glucoseMapping: the device offset of a reading', () => {
  it('sends the offset the reading was taken at with an add and with an edit', () => {
    const paris = reading({ utcOffsetMinutes: 60 });
    expect(bodyOf(glucoseMapping.toOp(paris, true))).toMatchObject({ recordedAt: paris.recordedAt, utcOffsetMinutes: 60 });
    const moved = { ...paris, recordedAt: '2026-11-22T12:13:00.000Z', utcOffsetMinutes: 330, version: 4 };
    expect(bodyOf(glucoseMapping.toOp(moved, false, { ...paris, version: 4 }))).toMatchObject({
      recordedAt: moved.recordedAt,
      utcOffsetMinutes: 330,
      baseVersion: 4,
    });
  });

  it('sends no offset for a reading that never had one (saved before it was kept), null included', () => {
    expect(bodyOf(glucoseMapping.toOp(reading(), true))).not.toHaveProperty('utcOffsetMinutes');
    expect(bodyOf(glucoseMapping.toOp(reading({ utcOffsetMinutes: null }), false, reading()))).not.toHaveProperty('utcOffsetMinutes');
  });

  it('keeps an offset of zero (UTC is an offset, not a missing one)', () => {
    expect(bodyOf(glucoseMapping.toOp(reading({ utcOffsetMinutes: 0 }), true))).toMatchObject({ utcOffsetMinutes: 0 });
  });
});
