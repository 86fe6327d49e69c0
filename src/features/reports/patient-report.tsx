import { Trans } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { useDatabase } from '../../lib/use-live.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { presetRange, todayIn, type DateRange } from './range.ts';
import { RangePicker } from './range-picker.tsx';
import { ReportView } from './report-view.tsx';
import { deviceTimeZone } from './report-input.ts';
import type { TrendProps } from './trend-section.tsx';
import { useLocalReport, useProfileDoc } from './use-local-report.ts';

/** The period a report opens with: two weeks, as the dashboard's trend. */
export const DEFAULT_REPORT_DAYS = 14;

/** /app/reports: the patient's own report from the data on this device (works offline). */
export function PatientReport({ renderTrend }: { renderTrend?: (props: TrendProps) => ReactNode }) {
  const db = useDatabase();
  const profile = useProfileDoc(db);
  const unit = useGlucoseUnit();
  const today = todayIn(profile?.timeZone || deviceTimeZone());
  const [chosen, setChosen] = useState<DateRange | undefined>();
  // Until the patient chooses, the default period follows "today" (the profile's zone may load later).
  const [fallback, setFallback] = useState(() => presetRange(DEFAULT_REPORT_DAYS, today));
  if (!chosen && fallback.to !== today) setFallback(presetRange(DEFAULT_REPORT_DAYS, today));
  const range = chosen ?? fallback;
  const report = useLocalReport(db, profile, range, unit);

  return (
    <>
      <RangePicker today={today} value={range} onChange={setChosen} />
      {report.status === 'loading' && (
        <p className="card" role="status">
          <Trans>Opening your data…</Trans>
        </p>
      )}
      {report.status === 'no-profile' && (
        <p className="card" role="status">
          <Trans>Your data has not reached this device yet. Connect to the internet once, then try again.</Trans>
        </p>
      )}
      {report.status === 'ready' && <ReportView model={report.model} downloads={['pdf', 'csv']} renderTrend={renderTrend} />}
    </>
  );
}
