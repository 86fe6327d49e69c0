import { Plural, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { WorklistReason } from './types.ts';
import { useWorklistFormat } from './use-worklist-format.ts';

/** How urgent each reason looks: a severe low in red, time below range in orange, the rest in amber. */
const TONE: Record<WorklistReason['code'], 'danger' | 'warning' | 'notice'> = {
  'severe-low': 'danger',
  'low-time': 'warning',
  'no-data': 'warning',
  'low-tir': 'notice',
  'missed-doses': 'notice',
  'rising-mean': 'notice',
  'sparse-data': 'notice',
};

/** One reason as a short chip, in the interface's language and the staff member's glucose unit. */
export function ReasonChip({ reason, days }: { reason: WorklistReason; days: number }) {
  const { t } = useLingui();
  const { unit, glucose: g, severeLowest, percent: pct } = useWorklistFormat();
  const v = reason.value;
  let text: ReactNode;
  switch (reason.code) {
    case 'severe-low':
      text = v === null ? t`Severe low` : t`Severe low: lowest ${{ lowest: severeLowest(v) }} ${unit}`;
      break;
    case 'low-time':
      text = t`Below ${{ level: g(70) }} ${unit}: ${{ percent: pct(v ?? 0) }} of readings`;
      break;
    case 'no-data':
      text = v === null ? t`No readings yet` : <Plural value={v} one="No readings for # day" other="No readings for # days" />;
      break;
    case 'low-tir':
      text = t`In range: ${{ percent: pct(v ?? 0) }} of readings`;
      break;
    case 'missed-doses':
      text = t`Doses marked taken: ${{ percent: pct(v ?? 0) }}`;
      break;
    case 'rising-mean':
      text = t`Mean up ${{ rise: g(v ?? 0) }} ${unit}`;
      break;
    case 'sparse-data': {
      const withReadings = v ?? 0;
      text = <Plural value={days} one={`Readings on ${withReadings} of # day`} other={`Readings on ${withReadings} of # days`} />;
      break;
    }
  }
  return <li className={`worklist-chip worklist-chip--${TONE[reason.code]}`}>{text}</li>;
}
