import { useLingui } from '@lingui/react/macro';
import type { GlucoseBand } from './targets.ts';

/** A reading's band as a coloured label with words, never colour alone. */
export function BandLabel({ band }: { band: GlucoseBand }) {
  const { t } = useLingui();
  const text: Record<GlucoseBand, string> = {
    'very-low': t`Very low`,
    low: t`Low`,
    'in-target': t`In target`,
    'below-target': t`Below target`,
    'above-target': t`Above target`,
    high: t`High`,
    'very-high': t`Very high`,
  };
  return <span className={`band band--${band}`}>{text[band]}</span>;
}
