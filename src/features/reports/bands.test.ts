import { describe, expect, it } from 'vitest';
import { BAND_ORDER, bandEdges } from './bands.ts';

describe('band edges', () => {
  it('are the consensus edges in each unit, in the locale number style', () => {
    expect(BAND_ORDER.map((b) => bandEdges(b, 'mg/dL', 'en'))).toEqual(['< 54', '54–69', '70–180', '181–250', '> 250']);
    expect(BAND_ORDER.map((b) => bandEdges(b, 'mmol/L', 'en'))).toEqual(['< 3.0', '3.0–3.8', '3.9–10.0', '10.1–13.9', '> 13.9']);
    expect(bandEdges('inRange', 'mmol/L', 'es')).toBe('3,9–10,0');
  });
});
