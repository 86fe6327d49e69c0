import { Plural } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { WorklistPatient } from './types.ts';
import { useWorklistFormat } from './use-worklist-format.ts';

/** The levels the line names (server/services/worklist-rules.ts), mg/dL and %. */
const LEVEL = { severe: 54, low: 70, high: 180, belowTarget: 4, inRange: 50, taken: 80 } as const;

/**
 * Why the patient stands where they do, in one line: the reason that places them and the counts
 * its weight is made of (server/services/worklist-priority.ts), in the staff member's unit. Nothing
 * for a patient without a reason, or on a page kept offline before the server said why.
 */
export function PriorityLine({ patient, days }: { patient: WorklistPatient; days: number }) {
  const { unit, glucose, severeLowest, percent } = useWorklistFormat();
  const p = patient.priority;
  if (!p || p.tier === null) return null;
  const count = p.count ?? 0;
  const outOf = p.outOf ?? 0;
  const share = outOf > 0 ? percent((count * 100) / outOf) : '';
  const value = patient.reasons.find((r) => r.code === p.tier)?.value ?? null;
  let text: ReactNode;
  switch (p.tier) {
    case 'severe-low': {
      const level = glucose(LEVEL.severe);
      const lowest = value === null ? '' : severeLowest(value);
      text = (
        <Plural
          value={count}
          one={`Ranked by: # reading below ${level} ${unit}, lowest ${lowest} ${unit}`}
          other={`Ranked by: # readings below ${level} ${unit}, lowest ${lowest} ${unit}`}
        />
      );
      break;
    }
    case 'low-time': {
      const level = glucose(LEVEL.low);
      const target = percent(LEVEL.belowTarget);
      text = (
        <Plural
          value={outOf}
          one={`Ranked by: ${count} of # reading below ${level} ${unit} (${share}; target under ${target})`}
          other={`Ranked by: ${count} of # readings below ${level} ${unit} (${share}; target under ${target})`}
        />
      );
      break;
    }
    case 'no-data':
      text =
        value === null ? (
          <Plural
            value={count}
            _0="Ranked by: no reading since registration today"
            one="Ranked by: no reading since registration # day ago"
            other="Ranked by: no reading since registration # days ago"
          />
        ) : (
          <Plural value={count} one="Ranked by: no reading for # day" other="Ranked by: no reading for # days" />
        );
      break;
    case 'low-tir': {
      const low = glucose(LEVEL.low);
      const high = glucose(LEVEL.high);
      const level = percent(LEVEL.inRange);
      text = (
        <Plural
          value={outOf}
          one={`Ranked by: ${count} of # reading in range ${low}–${high} ${unit} (${share}; under ${level})`}
          other={`Ranked by: ${count} of # readings in range ${low}–${high} ${unit} (${share}; under ${level})`}
        />
      );
      break;
    }
    case 'missed-doses': {
      const level = percent(LEVEL.taken);
      text = (
        <Plural
          value={outOf}
          one={`Ranked by: ${count} of # dose marked taken (${share}; under ${level})`}
          other={`Ranked by: ${count} of # doses marked taken (${share}; under ${level})`}
        />
      );
      break;
    }
    case 'rising-mean': {
      const rise = glucose(value ?? 0);
      text = (
        <Plural
          value={days}
          one={`Ranked by: mean up ${rise} ${unit} on the previous # day`}
          other={`Ranked by: mean up ${rise} ${unit} on the previous # days`}
        />
      );
      break;
    }
    case 'sparse-data':
      text = <Plural value={outOf} one={`Ranked by: readings on only ${count} of # day`} other={`Ranked by: readings on only ${count} of # days`} />;
      break;
  }
  return <p className="worklist-why">{text}</p>;
}
