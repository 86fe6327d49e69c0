import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeInfo } from './change-stream.ts';
import { followOwnChanges } from './live-pull.ts';

function following() {
  let emit: (info: ChangeInfo) => void = () => undefined;
  let stops = 0;
  let pulls = 0;
  const stop = followOwnChanges({
    follow: (onChange) => {
      emit = onChange;
      return () => void stops++;
    },
    pull: () => void pulls++,
    waitMs: 100,
  });
  const after = (info: ChangeInfo) => {
    emit(info);
    vi.advanceTimersByTime(100);
    return pulls;
  };
  return { after, emit: (info: ChangeInfo) => emit(info), stop, pulls: () => pulls, stops: () => stops };
}

describe("the patient's app following its own records", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("pulls on a change, not on the login's first ready (the start's own sync pulls that)", () => {
    const f = following();
    expect(f.after({ kind: 'ready', version: 10, gap: false })).toBe(0);
    expect(f.after({ kind: 'change', version: 11, gap: false })).toBe(1);
    expect(f.after({ kind: 'change', version: 12, gap: false })).toBe(2);
  });

  it('a stream opened again pulls only if the version moved while it was away, or signals may have been missed', () => {
    const f = following();
    f.after({ kind: 'ready', version: 10, gap: false });
    expect(f.after({ kind: 'ready', version: 10, gap: false })).toBe(0);
    expect(f.after({ kind: 'ready', version: 14, gap: false })).toBe(1);
    expect(f.after({ kind: 'ready', version: 14, gap: true })).toBe(2);
  });

  it('events close together make one pull; the polling fallback pulls each turn', () => {
    const f = following();
    f.after({ kind: 'ready', version: 1, gap: false });
    f.emit({ kind: 'change', version: 2, gap: false });
    f.emit({ kind: 'change', version: 3, gap: false });
    f.emit({ kind: 'change', version: 4, gap: false });
    vi.advanceTimersByTime(100);
    expect(f.pulls()).toBe(1);
    expect(f.after({ kind: 'poll', gap: false })).toBe(2);
    expect(f.after({ kind: 'poll', gap: false })).toBe(3);
  });

  it('stopped, it closes the stream and a pull it was gathering for is not made', () => {
    const f = following();
    f.after({ kind: 'ready', version: 1, gap: false });
    f.emit({ kind: 'change', version: 2, gap: false });
    f.stop();
    vi.advanceTimersByTime(1_000);
    expect(f.pulls()).toBe(0);
    expect(f.stops()).toBe(1);
  });
});
