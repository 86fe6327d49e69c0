import { describe, expect, it } from 'vitest';
import { copyForUndo } from './copy.ts';

describe('copyForUndo', () => {
  it('is a new record: a new id, no server time and no server version', () => {
    const removed = { _id: '0190a5e2-0000-7000-8000-000000000001', value: 140, updatedAt: '2026-11-01T07:00:00.000Z', version: 42 };
    const copy = copyForUndo(removed);
    expect(copy._id).not.toBe(removed._id);
    expect(copy).toEqual({ _id: copy._id, value: 140 });
    expect(removed.version).toBe(42);
  });
});
