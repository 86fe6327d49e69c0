import { useLingui } from '@lingui/react/macro';
import { formatGlucose, type GlucoseUnit } from '../../../schemas/glucose-units.ts';
import { shownAgreeing } from '../../../schemas/judgement.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';

/** The severe-low level the worklist judges the lowest reading by (server/services/worklist-rules.ts), mg/dL. */
const SEVERE_LOW_MG_DL = 54;

/** Glucose in the staff member's unit and shares as the worklist shows them (to one decimal, as the server rounds them). */
export function useWorklistFormat(): {
  unit: GlucoseUnit;
  glucose: (mgdl: number) => string;
  /** The lowest of a severe low, with the digits that keep it below the level it is named under (53.9, never "54"; 2.99 mmol/L, never "3.0"). */
  severeLowest: (mgdl: number) => string;
  percent: (n: number) => string;
} {
  const { i18n } = useLingui();
  const unit = useGlucoseUnit();
  const percentFormat = new Intl.NumberFormat(i18n.locale, { style: 'percent', maximumFractionDigits: 1 });
  return {
    unit,
    glucose: (mgdl) => formatGlucose(mgdl, unit, i18n.locale),
    severeLowest: (mgdl) => {
      const { value, decimals } = shownAgreeing(mgdl, unit, SEVERE_LOW_MG_DL, true);
      return new Intl.NumberFormat(i18n.locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
    },
    percent: (n) => percentFormat.format(n / 100),
  };
}
