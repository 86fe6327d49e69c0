// The worklist's order by clinical weight (worklist-priority.ts), case by case as a clinician would
// check it. Each patient is made from readings and the rules' own levels, so the flags are those the
// statement would set; the database's order is checked against this one in worklist.db.test.ts.
import { describe, expect, it } from 'vitest';
import { comparePriority, lowGlucoseRisk, priorityOf, sortByPriority, type PriorityFigures } from './worklist-priority.ts';
import { WORKLIST_RULES as R } from './worklist-rules.ts';

const DAYS = 14;
const NOW = new Date('2026-12-10T12:00:00Z');
const DAY = 86_400_000;

interface Made {
  /** The period's readings, mg/dL (none: no reading in the period). */
  values?: number[];
  /** Days of the period with a reading (default: every day when there are readings). */
  daysWith?: number;
  /** Days since the last reading (default 0.1); null: never a reading. */
  lastDaysAgo?: number | null;
  registeredDaysAgo?: number;
  doses?: { expected: number; taken: number };
  means?: { previous: number; now: number };
}

/** A patient's figures as the statement would give them, flags by the rules of worklist-rules.ts. */
function made(name: string, m: Made = {}): PriorityFigures {
  const values = m.values ?? [];
  const readings = values.length;
  const severe = values.filter((v) => v < R.severeLowMgDl);
  const below = values.filter((v) => v < R.lowMgDl).length;
  const inRange = values.filter((v) => v >= R.lowMgDl && v <= R.highMgDl).length;
  const daysWith = m.daysWith ?? (readings > 0 ? DAYS : 0);
  const lastReadingAt = m.lastDaysAgo === null ? null : new Date(NOW.getTime() - (m.lastDaysAgo ?? 0.1) * DAY);
  const doses = m.doses ?? { expected: 0, taken: 0 };
  const mean = m.means?.now ?? (readings > 0 ? values.reduce((a, b) => a + b, 0) / readings : null);
  const previousMean = m.means?.previous ?? null;
  return {
    hospNo: `H-${name}`,
    name,
    readings,
    severe: severe.length,
    severeRisk: severe.reduce((sum, v) => sum + lowGlucoseRisk(v), 0),
    below,
    inRange,
    lowest: readings > 0 ? Math.min(...values) : null,
    mean,
    previousMean,
    daysWithReadings: daysWith,
    lastReadingAt,
    registeredAt: new Date(NOW.getTime() - (m.registeredDaysAgo ?? 400) * DAY),
    expectedDoses: doses.expected,
    takenDoses: doses.taken,
    flags: {
      severeLow: severe.length > 0,
      lowTime: readings > 0 && (below * 100) / readings > R.lowTimeAbovePercent,
      lowTir: readings > 0 && (inRange * 100) / readings < R.inRangeBelowPercent,
      noData: lastReadingAt === null || lastReadingAt.getTime() <= NOW.getTime() - R.noDataDays * DAY,
      sparseData: readings > 0 && (daysWith * 100) / DAYS < R.daysWithReadingsBelowPercent,
      missedDoses: doses.expected > 0 && (doses.taken * 100) / doses.expected < R.dosesTakenBelowPercent,
      risingMean: mean !== null && previousMean !== null && mean - previousMean >= R.meanRiseMinMgDl && mean >= previousMean * (1 + R.meanRisePercent / 100),
    },
  };
}

const steady = (n: number, value = 120) => Array.from({ length: n }, () => value);
const order = (...list: PriorityFigures[]) => sortByPriority(list, DAYS, NOW).map((p) => p.name);
/** Every order of the input gives the same list: the order depends on the figures only. */
const orderFromAnyStart = (...list: PriorityFigures[]) => {
  const once = order(...list);
  expect(order(...[...list].reverse())).toEqual(once);
  return once;
};

describe('the worklist order: hypoglycaemia', () => {
  it('the tester’s case: 13 % of readings below 70 (lowest 57) before 1 of 4 below 70 (lowest 69) with sparse data', () => {
    const oneOfFour = made('One of four', { values: [69, 120, 140, 110], daysWith: 4 });
    const thirteen = made('Thirteen percent', { values: [57, 60, 62, 65, 66, 68, ...steady(39)] });
    // One reason more, and a larger share (25 %), but one reading just under 70 of four taken.
    expect(priorityOf(oneOfFour, 2, DAYS, NOW)).toMatchObject({ tier: 'low-time', weight: 0.84, count: 1, outOf: 4 });
    expect(oneOfFour.flags.sparseData).toBe(true);
    expect(orderFromAnyStart(oneOfFour, thirteen)).toEqual(['Thirteen percent', 'One of four']);
    expect(priorityOf(thirteen, 1, DAYS, NOW)).toEqual({
      rank: 1,
      tier: 'low-time',
      weight: 4.2,
      count: 6,
      outOf: 45,
      summary: 'Time below range: 6 of 45 readings below 70 mg/dL (13.3 %), 4.2 readings beyond the 4 % the target allows',
    });
  });

  it('two level-2 lows before one, the lower before the higher, and one very low before two just under 54', () => {
    const oneOf50 = made('One of 50', { values: [50, ...steady(40)] });
    const twoOf50 = made('Two of 50', { values: [50, 50, ...steady(40)] });
    const oneOf45 = made('One of 45', { values: [45, ...steady(40)] });
    const twoOf53 = made('Two of 53', { values: [53, 53, ...steady(40)] });
    const oneOf25 = made('One of 25', { values: [25, ...steady(40)] });
    expect(orderFromAnyStart(oneOf50, twoOf50)).toEqual(['Two of 50', 'One of 50']);
    expect(orderFromAnyStart(oneOf50, oneOf45)).toEqual(['One of 45', 'One of 50']);
    expect(orderFromAnyStart(oneOf45, twoOf53)).toEqual(['Two of 53', 'One of 45']);
    expect(orderFromAnyStart(twoOf53, oneOf25)).toEqual(['One of 25', 'Two of 53']);
    expect(priorityOf(twoOf53, 1, DAYS, NOW)).toMatchObject({ tier: 'severe-low', count: 2, outOf: 42, weight: 38.813 });
    expect(priorityOf(twoOf53, 1, DAYS, NOW).summary).toBe(
      'Level-2 lows first: 2 readings below 54 mg/dL, lowest 53 mg/dL; each weighs its hypoglycaemia risk, the lower the more (weight 38.813)',
    );
  });

  it('a single reading of 53 before 40 % of readings below 70 with none below 54, which leads the lows above 54', () => {
    const once53 = made('Once 53', { values: [53, ...steady(49)] });
    const forty = made('Forty percent', { values: [...steady(20, 62), ...steady(30)] });
    const thirteen = made('Thirteen percent', { values: [57, 60, 62, 65, 66, 68, ...steady(39)] });
    expect(orderFromAnyStart(thirteen, forty, once53)).toEqual(['Once 53', 'Forty percent', 'Thirteen percent']);
  });

  it('the share below 70 weighs by how far it is over the 4 % target, not by its being there', () => {
    const justOver = made('Just over', { values: [65, ...steady(23)] }); // 4.2 %
    const tenPercent = made('Ten percent', { values: [66, 66, 66, ...steady(27)] });
    expect(orderFromAnyStart(justOver, tenPercent)).toEqual(['Ten percent', 'Just over']);
  });

  it('Kovatchev’s risk: 0 from 112.5 mg/dL up, rising steeply below', () => {
    expect(lowGlucoseRisk(120)).toBe(0);
    expect(lowGlucoseRisk(112)).toBeCloseTo(0.0007, 3);
    expect(lowGlucoseRisk(70)).toBeCloseTo(7.76, 2);
    expect(lowGlucoseRisk(54)).toBeCloseTo(18.46, 2);
    expect(lowGlucoseRisk(45)).toBeCloseTo(28.66, 2);
    expect(lowGlucoseRisk(25)).toBeCloseTo(76.26, 2);
    for (let v = 20; v < 112; v += 1) expect(lowGlucoseRisk(v)).toBeGreaterThan(lowGlucoseRisk(v + 1));
  });
});

describe('the worklist order: the other reasons', () => {
  it('no data for 10 days before 3 days; never a reading counts from registration', () => {
    const three = made('Three days', { values: steady(20), lastDaysAgo: 3.2 });
    const ten = made('Ten days', { values: steady(4), lastDaysAgo: 10.2, daysWith: 4 });
    const neverOld = made('Never, registered a month ago', { lastDaysAgo: null, registeredDaysAgo: 30 });
    const neverNew = made('Never, registered today', { lastDaysAgo: null, registeredDaysAgo: 0.2 });
    expect(orderFromAnyStart(three, ten, neverOld, neverNew)).toEqual(['Never, registered a month ago', 'Ten days', 'Three days', 'Never, registered today']);
    expect(priorityOf(ten, 2, DAYS, NOW)).toMatchObject({ tier: 'no-data', count: 10, outOf: null, summary: 'No data: no reading for 10 days' });
    expect(priorityOf(neverOld, 1, DAYS, NOW)).toMatchObject({ tier: 'no-data', count: 30, summary: 'No data: no reading since registration 30 days ago' });
    expect(priorityOf(neverNew, 4, DAYS, NOW)).toMatchObject({ tier: 'no-data', count: 0, summary: 'No data: no reading since registration today' });
  });

  it('time in range and doses weigh by how far under their level, counted in readings and doses', () => {
    const tenOfForty = made('Ten percent of forty', { values: [...steady(4, 150), ...steady(36, 250)] });
    const noneOfOne = made('None of one', { values: [250], daysWith: 1 });
    expect(orderFromAnyStart(noneOfOne, tenOfForty)).toEqual(['Ten percent of forty', 'None of one']);
    const halfOfSixty = made('Half of sixty', { values: steady(40), doses: { expected: 60, taken: 30 } });
    const oneOfFour = made('One of four', { values: steady(40), doses: { expected: 4, taken: 1 } });
    expect(orderFromAnyStart(oneOfFour, halfOfSixty)).toEqual(['Half of sixty', 'One of four']);
    expect(priorityOf(halfOfSixty, 1, DAYS, NOW)).toMatchObject({ tier: 'missed-doses', weight: 18, count: 30, outOf: 60 });
  });

  it('a larger rise of the mean first', () => {
    const up15 = made('Up 15', { values: steady(30, 165), means: { previous: 150, now: 165 } });
    const up40 = made('Up 40', { values: steady(30, 170), means: { previous: 130, now: 170 } });
    expect(orderFromAnyStart(up15, up40)).toEqual(['Up 40', 'Up 15']);
    expect(priorityOf(up40, 1, DAYS, NOW)).toMatchObject({
      tier: 'rising-mean',
      weight: 40,
      count: null,
      summary: 'Rising mean: up 40 mg/dL on the 14 days before',
    });
  });

  it('sparse data never lifts a patient above one whose figures are worse; alone it comes after every other reason', () => {
    // 1 of 4 readings in range (25 %) and sparse, against 12 of 40 (30 %): eight readings short of half, not one.
    const sparseTir = made('Sparse, low in range', { values: [150, 250, 260, 270], daysWith: 4 });
    const lowTir = made('Low in range', { values: [...steady(12, 150), ...steady(28, 250)] });
    expect(orderFromAnyStart(sparseTir, lowTir)).toEqual(['Low in range', 'Sparse, low in range']);
    const sparseOnly = made('Sparse only', { values: steady(4), daysWith: 4 });
    const rising = made('Rising', { values: steady(30, 165), means: { previous: 150, now: 165 } });
    const fine = made('Fine', { values: steady(40) });
    expect(orderFromAnyStart(fine, sparseOnly, rising)).toEqual(['Rising', 'Sparse only', 'Fine']);
    expect(priorityOf(sparseOnly, 2, DAYS, NOW)).toMatchObject({ tier: 'sparse-data', weight: 10, count: 4, outOf: 14 });
    expect(priorityOf(fine, 3, DAYS, NOW)).toEqual({
      rank: 3,
      tier: null,
      weight: 0,
      count: null,
      outOf: null,
      summary: 'Nothing to act on: by the lowest reading, then by name',
    });
  });

  it('ties: the next reason’s weight, then the lower reading, then the name', () => {
    const lowAlone = made('Low alone', { values: [45, ...steady(40)] });
    const lowAndMissed = made('Low and missed doses', { values: [45, ...steady(40)], doses: { expected: 20, taken: 10 } });
    expect(orderFromAnyStart(lowAlone, lowAndMissed)).toEqual(['Low and missed doses', 'Low alone']);
    const at80 = made('Bea', { values: [80, ...steady(40)] });
    const at90 = made('Abe', { values: [90, ...steady(40)] });
    const alsoAt80 = made('Ann', { values: [80, ...steady(40)] });
    expect(orderFromAnyStart(at90, at80, alsoAt80)).toEqual(['Ann', 'Bea', 'Abe']);
    const noReadings = made('Aaron', { lastDaysAgo: null, registeredDaysAgo: 400 });
    expect(comparePriority(noReadings, at80, DAYS, NOW)).toBeLessThan(0); // no data is a reason; no lowest is last only among equals
  });
});
