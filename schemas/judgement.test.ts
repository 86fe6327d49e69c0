// The one judging module at every edge, in both units and as shown: whatever prints beside a
// judgement must agree with it visibly. The property tests sweep every value a meter shows in each
// unit, typed in either unit and viewed in either.
import { describe, expect, it } from 'vitest';
import { asTaken, type GlucoseUnit, type GlucoseValue, inferredUnit, shownGlucose, storedMgDl } from './glucose-units.ts';
import type { GlucoseType } from './glucose.ts';
import {
  adviceGrade,
  bandEdgesIn,
  bandOf,
  BANDS,
  CONSENSUS_EDGES,
  inclusiveTarget,
  interpretation,
  readingWord,
  shownAgreeing,
  TAG_TARGETS,
  targetStatus,
  type Band,
} from './judgement.ts';

const typedMgDl = (v: number): GlucoseValue => ({ value: v, unit: 'mg/dL', enteredValue: v });
const typedMmol = (v: number): GlucoseValue => ({ value: storedMgDl(v), unit: 'mmol/L', enteredValue: v });
const UNITS = ['mg/dL', 'mmol/L'] as const satisfies readonly GlucoseUnit[];
const TAGS = ['Fasting', 'Postprandial', 'Random'] as const satisfies readonly GlucoseType[];

/** The consensus band of a printed value, from the published edges written out by hand. */
function publishedBand(v: number, unit: GlucoseUnit): Band {
  const [veryLow, low, high, veryHigh] = unit === 'mg/dL' ? [54, 70, 180, 250] : [3.0, 3.9, 10.0, 13.9];
  return v < veryLow ? 'veryLow' : v < low ? 'low' : v <= high ? 'inRange' : v <= veryHigh ? 'high' : 'veryHigh';
}

/** Every value a meter prints: whole mg/dL 20–600, mmol/L 1.1–33.3 in tenths. */
const meterValues = (unit: GlucoseUnit): number[] =>
  unit === 'mg/dL' ? Array.from({ length: 581 }, (_, i) => 20 + i) : Array.from({ length: 323 }, (_, i) => (11 + i) / 10);
const typed = (v: number, unit: GlucoseUnit) => (unit === 'mg/dL' ? typedMgDl(v) : typedMmol(v));

describe('what a value prints as', () => {
  it('a reading taken in the unit shown prints as typed', () => {
    expect(shownGlucose(typedMmol(10.0), 'mmol/L')).toEqual({ value: 10, decimals: 1 });
    expect(shownGlucose(typedMgDl(53.9), 'mg/dL')).toEqual({ value: 53.9, decimals: 1 });
    expect(shownGlucose(typedMgDl(181), 'mg/dL')).toEqual({ value: 181, decimals: 0 });
  });
  it('a reading taken in the other unit prints converted and rounded as a meter shows that unit', () => {
    expect(shownGlucose(typedMgDl(181), 'mmol/L')).toEqual({ value: 10.0, decimals: 1 }); // 10.047
    expect(shownGlucose(typedMmol(10.0), 'mg/dL')).toEqual({ value: 180, decimals: 0 }); // 180.2
    expect(shownGlucose(typedMmol(13.9), 'mg/dL')).toEqual({ value: 250, decimals: 0 }); // 250.4
  });
  it('tells the unit of a stored value that does not say it', () => {
    expect(inferredUnit(180)).toBe('mg/dL');
    expect(inferredUnit(180.2)).toBe('mmol/L'); // 10.0 × 18.016, one decimal
    expect(inferredUnit(180.4)).toBe('mg/dL'); // 10.0 mmol/L reads back as 180.2, not 180.4
    expect(asTaken(180.2)).toEqual({ unit: 'mmol/L', value: 10 });
    expect(asTaken({ value: 180.2, unit: 'mmol/L' })).toEqual({ unit: 'mmol/L', value: 10 });
  });
});

describe('the consensus bands, judged as shown', () => {
  const edges: [GlucoseUnit, number, Band][] = [
    ['mg/dL', 53, 'veryLow'],
    ['mg/dL', 53.9, 'veryLow'],
    ['mg/dL', 54, 'low'],
    ['mg/dL', 69, 'low'],
    ['mg/dL', 69.5, 'low'],
    ['mg/dL', 70, 'inRange'],
    ['mg/dL', 180, 'inRange'],
    ['mg/dL', 180.5, 'high'],
    ['mg/dL', 181, 'high'],
    ['mg/dL', 250, 'high'],
    ['mg/dL', 251, 'veryHigh'],
    ['mmol/L', 2.9, 'veryLow'],
    ['mmol/L', 3.0, 'low'],
    ['mmol/L', 3.8, 'low'],
    ['mmol/L', 3.9, 'inRange'],
    ['mmol/L', 10.0, 'inRange'],
    ['mmol/L', 10.1, 'high'],
    ['mmol/L', 13.9, 'high'],
    ['mmol/L', 14.0, 'veryHigh'],
  ];
  it.each(edges)('typed %s %s is %s in its own unit', (unit, v, band) => {
    expect(bandOf(typed(v, unit), unit)).toBe(band);
  });

  it('the issue’s cases: the printed value and the band agree in mmol/L', () => {
    // 181 mg/dL printed "10.0" was counted "High 10.1–13.9".
    expect([shownGlucose(typedMgDl(181), 'mmol/L').value, bandOf(typedMgDl(181), 'mmol/L')]).toEqual([10.0, 'inRange']);
    // 69.5 mg/dL printed "3.9" was listed under "Every low (below 3.9)".
    expect([shownGlucose(typedMgDl(69.5), 'mmol/L').value, bandOf(typedMgDl(69.5), 'mmol/L')]).toEqual([3.9, 'inRange']);
    // 53.9 mg/dL printed "3.0" was counted "below 3.0".
    expect([shownGlucose(typedMgDl(53.9), 'mmol/L').value, bandOf(typedMgDl(53.9), 'mmol/L')]).toEqual([3.0, 'low']);
    // A fasting 79 mg/dL printed "4.4" was marked off the 4.4–7.2 target.
    expect([shownGlucose(typedMgDl(79), 'mmol/L').value, targetStatus(typedMgDl(79), 'Fasting', 'mmol/L')]).toEqual([4.4, 'in']);
    // In mg/dL each keeps the judgement its own digits say.
    expect([bandOf(typedMgDl(181), 'mg/dL'), bandOf(typedMgDl(69.5), 'mg/dL'), bandOf(typedMgDl(53.9), 'mg/dL')]).toEqual(['high', 'low', 'veryLow']);
    expect(targetStatus(typedMgDl(79), 'Fasting', 'mg/dL')).toBe('below');
  });

  it('a reading typed in mmol/L keeps its meter’s judgement when shown in mg/dL: 10.0 in range, 13.9 high', () => {
    expect([shownGlucose(typedMmol(10.0), 'mg/dL').value, bandOf(typedMmol(10.0), 'mg/dL')]).toEqual([180, 'inRange']);
    expect([shownGlucose(typedMmol(13.9), 'mg/dL').value, bandOf(typedMmol(13.9), 'mg/dL')]).toEqual([250, 'high']);
    // and from the stored mg/dL alone (a reading of an older version without its unit)
    expect(bandOf(180.2, 'mmol/L')).toBe('inRange');
  });

  it.each(UNITS.flatMap((from) => UNITS.map((to) => [from, to] as const)))(
    'every value a meter shows in %s, viewed in %s: the band is the published band of the printed value',
    (from, to) => {
      for (const v of meterValues(from)) {
        const r = typed(v, from);
        const printed = shownGlucose(r, to).value;
        expect(bandOf(r, to), `${v} ${from} printed ${printed} ${to}`).toBe(publishedBand(printed, to));
      }
    },
  );

  it.each(UNITS.flatMap((from) => UNITS.map((to) => [from, to] as const)))(
    'every value a meter shows in %s, viewed in %s: the meal targets hold for the printed value',
    (from, to) => {
      for (const v of meterValues(from)) {
        const r = typed(v, from);
        const printed = shownGlucose(r, to).value;
        for (const tag of TAGS) {
          const t = TAG_TARGETS[to][tag];
          const expected = printed < t.min ? 'below' : (t.maxInclusive ? printed <= t.max : printed < t.max) ? 'in' : 'above';
          expect(targetStatus(r, tag, to), `${v} ${from} ${tag} printed ${printed} ${to}`).toBe(expected);
        }
      }
    },
  );

  it('in the unit it was taken in, a reading is always judged by its meter’s value', () => {
    for (const unit of UNITS) for (const v of meterValues(unit)) expect(bandOf(typed(v, unit), unit)).toBe(publishedBand(v, unit));
  });

  it('publishes the edges of each band in each unit', () => {
    expect(BANDS.map((b) => bandEdgesIn(b, 'mg/dL'))).toEqual([
      [null, 54],
      [54, 69],
      [70, 180],
      [181, 250],
      [null, 250],
    ]);
    expect(BANDS.map((b) => bandEdgesIn(b, 'mmol/L'))).toEqual([
      [null, 3.0],
      [3.0, 3.8],
      [3.9, 10.0],
      [10.1, 13.9],
      [null, 13.9],
    ]);
    expect(CONSENSUS_EDGES['mmol/L']).toEqual({ veryLow: 3.0, low: 3.9, high: 10.0, veryHigh: 13.9 });
  });
});

describe('meal targets ("In target")', () => {
  it.each([
    ['Fasting', 79, 'mg/dL', 'below'],
    ['Fasting', 80, 'mg/dL', 'in'],
    ['Fasting', 130, 'mg/dL', 'in'],
    ['Fasting', 131, 'mg/dL', 'above'],
    ['Fasting', 4.3, 'mmol/L', 'below'],
    ['Fasting', 4.4, 'mmol/L', 'in'],
    ['Fasting', 7.2, 'mmol/L', 'in'],
    ['Fasting', 7.3, 'mmol/L', 'above'],
    ['Postprandial', 69, 'mg/dL', 'below'],
    ['Postprandial', 70, 'mg/dL', 'in'],
    ['Postprandial', 179, 'mg/dL', 'in'],
    ['Postprandial', 179.9, 'mg/dL', 'in'],
    ['Postprandial', 180, 'mg/dL', 'above'],
    ['Postprandial', 9.9, 'mmol/L', 'in'],
    ['Postprandial', 10.0, 'mmol/L', 'above'],
    ['Random', 180, 'mg/dL', 'in'],
    ['Random', 181, 'mg/dL', 'above'],
    ['Random', 10.0, 'mmol/L', 'in'],
    ['Random', 10.1, 'mmol/L', 'above'],
  ] as const)('%s %s %s is %s', (tag, v, unit, status) => {
    expect(targetStatus(typed(v, unit), tag, unit)).toBe(status);
  });

  it('one word per reading on the dashboard: the band outside the range, the tag’s target inside it', () => {
    expect(readingWord(typedMgDl(75), 'Fasting', 'mg/dL')).toBe('below-target');
    expect(readingWord(typedMgDl(148), 'Fasting', 'mg/dL')).toBe('above-target');
    expect(readingWord(typedMgDl(180), 'Postprandial', 'mg/dL')).toBe('above-target');
    expect(readingWord(typedMgDl(69), 'Postprandial', 'mg/dL')).toBe('low');
    expect(readingWord(typedMgDl(185), 'Postprandial', 'mg/dL')).toBe('high');
    expect(readingWord(typedMgDl(53.9), 'Random', 'mg/dL')).toBe('very-low');
    expect(readingWord(typedMgDl(251), 'Random', 'mg/dL')).toBe('very-high');
    expect(readingWord(typedMmol(10.0), 'Random', 'mmol/L')).toBe('in-target');
  });
});

describe('FHIR interpretation', () => {
  it.each([
    ['Fasting', 176, 'mg/dL', 'H'], // "N" against 70–180 before: 42 such readings of one patient
    ['Fasting', 100, 'mg/dL', 'N'],
    ['Fasting', 75, 'mg/dL', 'L'],
    ['Fasting', 53, 'mg/dL', 'LL'],
    ['Random', 180.2, 'mg/dL', 'H'], // typed so in mg/dL: above its range's 180
    ['Random', 250.4, 'mg/dL', 'HH'],
    ['Random', 251, 'mg/dL', 'HH'],
    ['Random', 250, 'mg/dL', 'H'],
    ['Postprandial', 180, 'mg/dL', 'H'],
    ['Postprandial', 179, 'mg/dL', 'N'],
    ['Random', 10.0, 'mmol/L', 'N'],
    ['Random', 13.9, 'mmol/L', 'H'],
    ['Random', 14.0, 'mmol/L', 'HH'],
    ['Fasting', 2.9, 'mmol/L', 'LL'],
  ] as const)('%s %s %s is %s', (tag, v, unit, code) => {
    expect(interpretation(typed(v, unit), tag, unit)).toBe(code);
  });

  it('every value agrees with its reference range (FHIR bounds are inclusive)', () => {
    for (const unit of UNITS)
      for (const v of [...meterValues(unit), ...meterValues(unit).map((x) => x + (unit === 'mg/dL' ? 0.5 : 0.05))])
        for (const tag of TAGS) {
          const r = typed(v, unit);
          const shown = shownGlucose(r, unit).value;
          const { low, high } = inclusiveTarget(r, tag, unit);
          const code = interpretation(r, tag, unit);
          const inside = shown >= low && shown <= high;
          expect(code === 'N', `${v} ${unit} ${tag}: ${code} against ${low}–${high}`).toBe(inside);
          if (code === 'L' || code === 'LL') expect(shown).toBeLessThan(low);
          if (code === 'H' || code === 'HH') expect(shown).toBeGreaterThan(high);
        }
  });

  it('after a meal "below 180" is 70–179 for whole mg/dL and 70–179.9 for one decimal', () => {
    expect(inclusiveTarget(typedMgDl(150), 'Postprandial', 'mg/dL')).toEqual({ low: 70, high: 179, decimals: 0 });
    expect(inclusiveTarget(typedMgDl(179.5), 'Postprandial', 'mg/dL')).toEqual({ low: 70, high: 179.9, decimals: 1 });
    expect(inclusiveTarget(typedMmol(8), 'Postprandial', 'mmol/L')).toEqual({ low: 3.9, high: 9.9, decimals: 1 });
    expect(inclusiveTarget(typedMgDl(100), 'Fasting', 'mg/dL')).toEqual({ low: 80, high: 130, decimals: 0 });
  });
});

describe('advice grades', () => {
  it.each([
    [45, 'mg/dL', 'veryLow'],
    [53.9, 'mg/dL', 'veryLow'],
    [60, 'mg/dL', 'low'],
    [69, 'mg/dL', 'low'],
    [70, 'mg/dL', undefined],
    [250, 'mg/dL', undefined],
    [251, 'mg/dL', 'veryHigh'],
    [300, 'mg/dL', 'veryHigh'],
    [399, 'mg/dL', 'veryHigh'],
    [400, 'mg/dL', 'urgentHigh'],
    [599, 'mg/dL', 'urgentHigh'],
    [600, 'mg/dL', 'meterTop'],
    [2.9, 'mmol/L', 'veryLow'],
    [3.8, 'mmol/L', 'low'],
    [13.9, 'mmol/L', undefined],
    [14.0, 'mmol/L', 'veryHigh'],
    [22.1, 'mmol/L', 'veryHigh'],
    [22.2, 'mmol/L', 'urgentHigh'], // 400 mg/dL as mmol/L shows it
    [30.0, 'mmol/L', 'urgentHigh'],
    [33.3, 'mmol/L', 'meterTop'],
  ] as const)('%s %s: %s', (v, unit, grade) => {
    expect(adviceGrade(typed(v, unit), unit)).toBe(grade);
  });
  it('follows the hospital’s urgent level', () => {
    expect(adviceGrade(typedMgDl(320), 'mg/dL', { urgentHighMgDl: 300 })).toBe('urgentHigh');
    expect(adviceGrade(typedMmol(16.7), 'mmol/L', { urgentHighMgDl: 300 })).toBe('urgentHigh');
    expect(adviceGrade(typedMmol(16.6), 'mmol/L', { urgentHighMgDl: 300 })).toBe('veryHigh');
  });
});

describe('a value printed in a second unit beside a judgement made in the first', () => {
  it('takes the digits that keep it on the judged side', () => {
    // A severe low of 53.9 mg/dL (below 54) is "2.99 mmol/L", not "3.0".
    expect(shownAgreeing(typedMgDl(53.9), 'mmol/L', 54, true)).toEqual({ value: 2.99, decimals: 2 });
    // When the usual digits already agree they stay.
    expect(shownAgreeing(typedMgDl(45), 'mmol/L', 54, true)).toEqual({ value: 2.5, decimals: 1 });
    expect(shownAgreeing(typedMmol(2.9), 'mg/dL', 54, true)).toEqual({ value: 52, decimals: 0 });
  });
});
