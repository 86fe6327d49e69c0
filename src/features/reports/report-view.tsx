import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo, type ReactNode } from 'react';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import type { ReportModel } from '../../../report/types.ts';
import { ByTypeTable } from './by-type-table.tsx';
import { AdherenceSection, AppointmentsSection, ChecksSection, LabsSection, LowsSection, SymptomsSection } from './care-sections.tsx';
import { DistributionChart } from './distribution-chart.tsx';
import { KeyFigures } from './key-figures.tsx';
import { ReportActions, type ReportDownload } from './report-actions.tsx';
import { TimeOfDayChart } from './time-of-day-chart.tsx';
import { TrendSection, type TrendProps } from './trend-section.tsx';
import { useReportFormat, type ReportFormat } from '../../lib/use-report-format.ts';
import './reports.css';

export type TypeLabels = Record<GlucoseType | 'overall', string>;

/** Who, which days, and the buttons for the files. `title` replaces the patient's name where a page already heads with it. */
export function ReportHead({
  model,
  downloads,
  f,
  title,
}: {
  model: ReportModel;
  downloads: readonly ReportDownload[];
  f: ReportFormat;
  title?: string | undefined;
}) {
  const { patient, range } = model.input;
  return (
    <section className="card report-head" aria-labelledby="report-patient">
      <div>
        <h2 id="report-patient">{title ?? patient.name}</h2>
        <p className="report-facts">
          <span>
            <Trans>Hospital number</Trans>: <strong data-testid="report-hospno">{patient.hospNo}</strong>
          </span>
          {patient.hospital ? <span>{patient.hospital}</span> : null}
          <span data-testid="report-period">
            <Trans>
              {{ from: f.day(range.from) }} – {{ to: f.day(range.to) }} ({{ days: model.days }} days)
            </Trans>
          </span>
          {/* Always said: days and times are the profile's, which need not be this device's. */}
          <span data-testid="report-time-zone">
            <Trans>Times are local to {{ timeZone: patient.timeZone }}</Trans>
          </span>
        </p>
      </div>
      <ReportActions model={model} downloads={downloads} />
    </section>
  );
}

/** The whole report on screen: who and when, the files, the numbers, the charts, the rest of the care. */
export function ReportView({
  model,
  downloads,
  renderTrend,
}: {
  model: ReportModel;
  downloads: readonly ReportDownload[];
  renderTrend?: ((props: TrendProps) => ReactNode) | undefined;
}) {
  const { t } = useLingui();
  const f = useReportFormat(model.unit, model.input.patient.timeZone);
  const labels: TypeLabels = useMemo(() => ({ Fasting: t`Fasting`, Postprandial: t`Postprandial`, Random: t`Random`, overall: t`All readings` }), [t]);
  const readings = useMemo(
    () =>
      model.readings.map((r) => ({
        _id: r.id,
        type: r.type,
        value: r.value,
        unit: r.unit ?? null,
        enteredValue: r.enteredValue ?? null,
        recordedAt: r.recordedAt,
        utcOffsetMinutes: r.utcOffsetMinutes ?? null,
      })),
    [model.readings],
  );
  return (
    <div className="report" data-testid="report">
      <ReportHead model={model} downloads={downloads} f={f} />
      <KeyFigures model={model} f={f} />
      <TrendSection model={model} readings={readings} f={f} labels={labels} renderTrend={renderTrend} />
      <div className="grid-2">
        <DistributionChart summary={model.overall} f={f} />
        <TimeOfDayChart model={model} f={f} labels={labels} />
      </div>
      <ByTypeTable model={model} f={f} labels={labels} />
      <LowsSection model={model} f={f} labels={labels} />
      <div className="grid-2">
        <AdherenceSection model={model} f={f} />
        <LabsSection model={model} f={f} />
        <SymptomsSection model={model} f={f} />
        <div>
          <ChecksSection model={model} f={f} />
          <AppointmentsSection model={model} f={f} />
        </div>
      </div>
    </div>
  );
}
