import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { usePageTitle } from '../../components/page-title.tsx';
import { AppointmentsCard } from '../../features/appointments/appointments-card.tsx';
import { Greeting } from '../../features/dashboard/greeting.tsx';
import { GlucoseEntry } from '../../features/glucose/glucose-entry.tsx';
import { GlucoseLists } from '../../features/glucose/glucose-lists.tsx';
import { TodaySummary } from '../../features/glucose/today-summary.tsx';
import { TrendChart } from '../../features/glucose/trend-chart.tsx';
import { MedicinesCard } from '../../features/medicines/medicines-card.tsx';
import { MeterImport } from '../../features/meter/meter-import-card.tsx';
import { RemindersPrompt } from '../../features/reminders/reminders-prompt.tsx';
import { useDatabase, useLiveDocs } from '../../lib/db/use-live.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

export const Route = createFileRoute('/app/')({ component: Dashboard });

const DASHBOARD_DAYS = 90;

function Dashboard() {
  const { t } = useLingui();
  usePageTitle(t`Dashboard`);
  const runtime = useRuntime();
  const db = useDatabase();
  // The dashboard needs 90 days at most (the longest trend); recordedAt is a plain, indexed field,
  // so older readings are never read or decrypted unless the patient asks for them.
  const [withOlder, setWithOlder] = useState(false);
  const [since] = useState(() => new Date(Date.now() - DASHBOARD_DAYS * 86_400_000).toISOString());
  const readings = useLiveDocs<GlucoseReading>(
    db,
    (d) => d.glucose.find({ selector: withOlder ? {} : { recordedAt: { $gte: since } }, sort: [{ recordedAt: 'desc' }] }),
    [withOlder, since],
  );

  return (
    <div className="dashboard">
      <Greeting db={db} />
      <RemindersPrompt />
      {/* In the order a patient uses it most: record a reading, today's medicines, the latest
          readings; then the meter, appointments, the trend and every reading. */}
      <div className="dashboard-top">
        <GlucoseEntry collection={async () => (await runtime.openDatabase()).glucose} onSaved={(text) => runtime.notify({ type: 'success', text })} />
        <MedicinesCard db={db} notify={runtime.notify} />
      </div>
      <div className="grid-2">
        {readings && <TodaySummary readings={readings} />}
        <AppointmentsCard db={db} notify={runtime.notify} />
      </div>
      <MeterImport collection={async () => (await runtime.openDatabase()).glucose} />
      {readings && <TrendChart readings={readings} />}
      <GlucoseLists readings={readings} collection={db?.glucose} notify={runtime.notify} />
      {!withOlder && readings && (
        <p className="older-readings">
          <button type="button" className="button button--secondary" onClick={() => setWithOlder(true)}>
            <Trans>Show readings older than {DASHBOARD_DAYS} days</Trans>
          </button>
        </p>
      )}
    </div>
  );
}
