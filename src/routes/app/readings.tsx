import { createFileRoute, Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { Icon } from '../../components/icon.tsx';
import { GlucoseLists } from '../../features/glucose/glucose-lists.tsx';
import { TrendChart } from '../../features/glucose/trend-chart.tsx';
import { RECENT_DAYS as DAYS, useRecentReadings } from '../../features/glucose/use-recent-readings.ts';
import { MeterImport } from '../../features/meter/meter-import-card.tsx';
import { useDatabase } from '../../lib/use-live.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

// The glucose history (issue 50): the trend and every reading by type, editable and removable. The
// dashboard keeps what a patient with a meter in one hand needs (record, today's doses, the latest
// of each type, what needs attention) and links here.
export const Route = createFileRoute('/app/readings')({ component: Readings });

function Readings() {
  const { t } = useLingui();
  usePageTitle(t`Your readings`);
  const runtime = useRuntime();
  const db = useDatabase();
  const { readings, completeFrom, firstOnly, mayShowOlder, showAll } = useRecentReadings(db, 'always');
  return (
    <div className="readings-page">
      <p className="back-link">
        <Link to="/app">
          <Icon icon="mdi:arrow-left" /> <Trans>Dashboard</Trans>
        </Link>
      </p>
      <h1>
        <Trans>Your readings</Trans>
      </h1>
      {readings && <TrendChart readings={readings} completeFrom={completeFrom} />}
      <GlucoseLists readings={readings} complete={!firstOnly} collection={db?.glucose} notify={runtime.notify} />
      {mayShowOlder && (
        <p className="older-readings">
          <button type="button" className="button button--secondary" onClick={showAll}>
            <Trans>Show readings older than {DAYS} days</Trans>
          </button>
        </p>
      )}
      <MeterImport collection={async () => (await runtime.openDatabase()).glucose} />
    </div>
  );
}
