import { useLingui } from '@lingui/react/macro';
import { formatDay, isWeekday, weekdayName } from './glucometer-days.ts';

/** How a stored day reads: "Every Monday" or the date, in the patient's language. */
export function useDayLabel(): (day: string) => string {
  const { t, i18n } = useLingui();
  return (day) => {
    if (!isWeekday(day)) return formatDay(day, i18n.locale);
    const weekday = weekdayName(day, i18n.locale);
    return t`Every ${weekday}`;
  };
}
