import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { lazy, Suspense } from 'react';
import { usePageTitle } from '../../components/page-title.tsx';
import { PatientReport } from '../../features/reports/patient-report.tsx';
import type { TrendProps } from '../../features/reports/trend-section.tsx';

export const Route = createFileRoute('/app/reports')({ component: Page });

// The dashboard's trend chart (uPlot), loaded only when a report with readings shows it.
const TrendCanvas = lazy(() => import('../../features/glucose/trend-canvas.tsx'));

function renderTrend(props: TrendProps) {
  return (
    <Suspense fallback={<div className="trend-canvas trend-canvas--loading" />}>
      <TrendCanvas {...props} />
    </Suspense>
  );
}

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Reports`);
  return (
    <div className="reports">
      <h1>
        <Trans>Reports</Trans>
      </h1>
      <PatientReport renderTrend={renderTrend} />
    </div>
  );
}
