// Where a reading stands against the targets of docs/requirements.md §11, for the dashboard's labels and
// colours: the International Consensus on Time in Range (very low < 54, low < 70, high > 180, very
// high > 250 mg/dL; < 3.0, < 3.9, > 10.0, > 13.9 mmol/L) for every reading, and the ADA meal targets
// on top (fasting 80–130 / 4.4–7.2, postprandial < 180 / < 10.0). A reading is judged in the unit it
// was taken in. The numbers and boundaries live in one place, schemas/report/statistics.ts, which the
// reports and the staff review use too.
import type { GlucoseType } from '../../../schemas/glucose.ts';
import { bandOf, CONSENSUS, targetStatus, type Judgeable } from '../../../schemas/report/statistics.ts';

export type GlucoseBand = 'very-low' | 'low' | 'in-target' | 'above-target' | 'high' | 'very-high';

export const TIME_IN_RANGE = CONSENSUS;

/** Whether a reading is in the consensus target range, 70–180 mg/dL / 3.9–10.0 mmol/L (the trend's shaded band). */
export const inTimeInRange = (reading: Judgeable): boolean => bandOf(reading) === 'inRange';

export function classifyGlucose(reading: Judgeable, type: GlucoseType): GlucoseBand {
  switch (bandOf(reading)) {
    case 'veryLow':
      return 'very-low';
    case 'low':
      return 'low';
    case 'veryHigh':
      return 'very-high';
    case 'high':
      return 'high';
    default: {
      // 70–79 fasting is above the consensus low but below the ADA fasting target: not "in target".
      const status = targetStatus(reading, type);
      return status === 'in' ? 'in-target' : status === 'below' ? 'low' : 'above-target';
    }
  }
}
