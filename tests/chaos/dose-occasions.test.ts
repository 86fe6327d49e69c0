import { describe, expect, it } from 'vitest';
import { countDoseOccasions, SAME_DOSE_WINDOW_MS } from './dose-occasions.ts';

describe('countDoseOccasions', () => {
  it('counts each medicine marked once per occasion: two devices marking it minutes apart is one dose', () => {
    const t = 1_800_000_000_000;
    expect(countDoseOccasions([])).toBe(0);
    expect(countDoseOccasions([{ medicine: 'Metformin', at: t }])).toBe(1);
    // Seed 5060607: B marked it, A marked it 8 s later before it had pulled B's.
    expect(
      countDoseOccasions([
        { medicine: 'Metformin', at: t + 8_000 },
        { medicine: 'Metformin', at: t },
      ]),
    ).toBe(1);
    // Another medicine at the same moment is another dose.
    expect(
      countDoseOccasions([
        { medicine: 'Metformin', at: t },
        { medicine: 'Glimepiride', at: t + 1_000 },
      ]),
    ).toBe(2);
    // The same medicine a meal later is another dose.
    expect(
      countDoseOccasions([
        { medicine: 'Metformin', at: t },
        { medicine: 'Metformin', at: t + SAME_DOSE_WINDOW_MS },
      ]),
    ).toBe(2);
  });
});
