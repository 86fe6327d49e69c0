import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { TrendCanvasLoader } from '../../features/glucose/trend-canvas-loader.tsx';
import { PatientReport } from '../../features/reports/patient-report.tsx';
import type { TrendProps } from '../../features/reports/trend-section.tsx';

export const Route = createFileRoute('/app/reports')({ component: Page });

// The dashboard's trend chart (uPlot), loaded only when a report with readings shows it.
function renderTrend(props: TrendProps) {
  return <TrendCanvasLoader {...props} />;
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
