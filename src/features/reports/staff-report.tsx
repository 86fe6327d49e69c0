import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { buildReport } from '../../../schemas/report/build-report.ts';
import type { ReportInput } from '../../../schemas/report/types.ts';
import { useGlucoseUnit } from '../../lib/units.ts';
import { KeyFigures } from './key-figures.tsx';
import { todayIn, type DateRange } from './range.ts';
import { RangePicker } from './range-picker.tsx';
import { ReportHead } from './report-view.tsx';
import { useReportFormat } from './use-report-format.ts';

/** The period a clinician's report opens with: a month, the usual interval between visits. */
export const DEFAULT_STAFF_REPORT_DAYS = 30;

/**
 * /admin/report: the same report for a patient the staff member opened, from the copy on this
 * device (so a ward without Wi-Fi can still print it), with the FHIR export for the hospital record.
 * `makeInput` maps the route's data for a range; it should keep its identity while the data does.
 */
export function StaffReport({
  timeZone,
  makeInput,
  range,
  onRangeChange,
}: {
  timeZone: string;
  makeInput: (range: DateRange, generatedAt: string) => ReportInput;
  /** The review's one period (issue 16): the page keeps it, so every card below follows it. */
  range: DateRange;
  onRangeChange: (range: DateRange) => void;
}) {
  const { t } = useLingui();
  const unit = useGlucoseUnit();
  const today = todayIn(timeZone);
  const model = useMemo(() => buildReport(makeInput(range, new Date().toISOString())), [makeInput, range]);
  const f = useReportFormat(unit, model.input.patient.timeZone);
  return (
    <div className="staff-report">
      <RangePicker today={today} value={range} onChange={onRangeChange} />
      {/* The page already heads with the patient's name. */}
      <ReportHead model={model} unit={unit} downloads={['pdf', 'fhir']} f={f} title={t`Report for the period`} />
      <KeyFigures model={model} f={f} />
    </div>
  );
}
