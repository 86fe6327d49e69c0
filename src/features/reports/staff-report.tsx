import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { buildReport } from '../../../report/build-report.ts';
import type { ReportInput, ReportModel } from '../../../report/types.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { KeyFigures } from './key-figures.tsx';
import { todayIn, type DateRange } from './range.ts';
import { RangePicker } from './range-picker.tsx';
import { ReportHead } from './report-view.tsx';
import { useReportFormat, type ReportFormat } from '../../lib/use-report-format.ts';

/** The period a clinician's report opens with: a month, the usual interval between visits. */
export const DEFAULT_STAFF_REPORT_DAYS = 30;

/**
 * /admin/report: the same report for a patient the staff member opened, from the copy on this
 * device (so a ward without Wi-Fi can still print it), with the FHIR export for the hospital record.
 * `makeInput` maps the route's data for a range; it should keep its identity while the data does.
 */
export function StaffReport({
  timeZone,
  model,
  f,
  range,
  onRangeChange,
}: {
  timeZone: string;
  /** The report of the review's one period, which every card below reads too (useStaffReportModel). */
  model: ReportModel;
  f: ReportFormat;
  range: DateRange;
  onRangeChange: (range: DateRange) => void;
}) {
  const { t } = useLingui();
  const today = todayIn(timeZone);
  return (
    <div className="staff-report">
      <RangePicker today={today} value={range} onChange={onRangeChange} />
      {/* The page already heads with the patient's name. */}
      <ReportHead model={model} downloads={['pdf', 'csv', 'fhir']} f={f} title={t`Report for the period`} />
      <KeyFigures model={model} f={f} />
    </div>
  );
}

/**
 * The report over `range` in the staff member's unit and its formats: one model for the page, so the
 * summary, the statistics table, the files and the readings all hold the same rows and figures.
 * `makeInput` maps the route's data for a range; it should keep its identity while the data does.
 */
export function useStaffReportModel(
  makeInput: (range: DateRange, generatedAt: string) => ReportInput,
  range: DateRange,
): { model: ReportModel; f: ReportFormat } {
  const unit = useGlucoseUnit();
  const model = useMemo(() => buildReport(makeInput(range, new Date().toISOString()), unit), [makeInput, range, unit]);
  const f = useReportFormat(unit, model.input.patient.timeZone);
  return { model, f };
}
