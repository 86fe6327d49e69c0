// The International Consensus on Time in Range bands as a report shows them. Their edges are
// written out per unit rather than converted: 181 mg/dL is 10.05 mmol/L, which rounds to 10.0 and
// would print "10.0–13.9" next to "3.9–10.0"; the consensus itself publishes these mmol/L edges, and
// the statistics module judges each reading by them (bandEdgesIn).
import { ENTRY_DECIMALS, type GlucoseUnit } from '../../../schemas/glucose-units.ts';
import { bandEdgesIn } from '../../../schemas/judgement.ts';
import type { GlucoseSummary } from '../../../report/types.ts';

export type BandKey = keyof GlucoseSummary['bands'];

/** Lowest first, as the consensus lists them. */
export const BAND_ORDER: readonly BandKey[] = ['veryLow', 'low', 'inRange', 'high', 'veryHigh'];

/** "70–180", "< 54", "> 13,9": a band's edges in `unit`, numbers in the locale's style. */
export function bandEdges(band: BandKey, unit: GlucoseUnit, locale: string): string {
  const digits = ENTRY_DECIMALS[unit];
  const n = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const [low, high] = bandEdgesIn(band, unit);
  if (band === 'veryLow') return `< ${n.format(high)}`;
  if (band === 'veryHigh') return `> ${n.format(high)}`;
  return `${n.format(low ?? 0)}–${n.format(high)}`;
}

/** Colours of the usual glucose profile reports; each band is also named in text beside it. */
export const BAND_COLOURS: Record<BandKey, string> = {
  veryLow: '#8c1d18',
  low: '#e53935',
  inRange: '#2e7d32',
  high: '#f9a825',
  veryHigh: '#e65100',
};

/** The reading types' colours, the same as the dashboard's trend chart. */
export const TYPE_COLOURS = { Fasting: '#00695c', Postprandial: '#c2410c', Random: '#4338ca' } as const;
