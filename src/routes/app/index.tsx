import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { GlucoseReading } from '../../../schemas/glucose.ts';
import { usePageTitle } from '../../components/page-title.tsx';
import { AppointmentsCard } from '../../features/appointments/appointments-card.tsx';
import { ClockNote } from '../../features/dashboard/clock-note.tsx';
import { Greeting } from '../../features/dashboard/greeting.tsx';
import { adviceSettingsOf } from '../../../schemas/user-profile.ts';
import { GlucoseEntry } from '../../features/glucose/glucose-entry.tsx';
import { GlucoseLists } from '../../features/glucose/glucose-lists.tsx';
import { TodaySummary } from '../../features/glucose/today-summary.tsx';
import { DEFAULT_TREND_DAYS, TrendChart } from '../../features/glucose/trend-chart.tsx';
import { MedicinesCard } from '../../features/medicines/medicines-card.tsx';
import { MeterImport } from '../../features/meter/meter-import-card.tsx';
import { RemindersPrompt } from '../../features/reminders/reminders-prompt.tsx';
import type { ProfileDoc } from '../../../sync/storage/collections.ts';
import { useDatabase, useLiveDocs, useLiveResult } from '../../lib/use-live.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

export const Route = createFileRoute('/app/')({ component: Dashboard });

const DASHBOARD_DAYS = 90;
const DAY_MS = 86_400_000;

/** Which readings the dashboard reads: what its first screen shows, then its 90 days, then all. */
type Span = 'first' | 'days' | 'all';

function Dashboard() {
  const { t } = useLingui();
  usePageTitle(t`Dashboard`);
  const runtime = useRuntime();
  const db = useDatabase();
  // The advice after a reading follows the patient's hospital (its urgent level, its contact).
  const profile = useLiveDocs<ProfileDoc>(db, (d) => d.profile.find(), [])?.[0];
  // The dashboard needs 90 days at most (the longest trend); recordedAt is a plain, indexed field,
  // so older readings are never read or decrypted unless the patient asks for them. Its first
  // screen shows less: today, the latest readings and the trend's default period. Those are read
  // first, and the 90 days right after they are drawn: with years of readings, decrypting 90 days
  // (some 2,700 readings, one WebCrypto call each) delayed the first screen by about half a second
  // (bench: dashboard10kListsMs).
  const [span, setSpan] = useState<Span>('first');
  const [since] = useState(() => {
    const now = Date.now();
    return { first: new Date(now - DEFAULT_TREND_DAYS * DAY_MS).toISOString(), days: new Date(now - DASHBOARD_DAYS * DAY_MS).toISOString() };
  });
  const from = span === 'all' ? undefined : since[span];
  const result = useLiveResult<GlucoseReading>(
    db,
    (d) => d.glucose.find({ selector: from === undefined ? {} : { recordedAt: { $gte: from } }, sort: [{ recordedAt: 'desc' }] }),
    [from],
  );
  const readings = result?.docs;
  // The readings shown are complete from this instant on (the query's bound; none: all of them).
  const bound: unknown = result?.deps[0];
  const shownFrom = typeof bound === 'string' ? Date.parse(bound) : undefined;
  const firstOnly = result !== undefined && bound === since.first;
  useEffect(() => {
    if (!firstOnly || span !== 'first') return undefined;
    // A task later, so the first screen is painted before the wider query's work starts.
    const timer = setTimeout(() => setSpan('days'), 0);
    return () => clearTimeout(timer);
  }, [firstOnly, span]);

  return (
    <div className="dashboard">
      <Greeting db={db} />
      <ClockNote />
      <RemindersPrompt />
      {/* In the order a patient uses it most: record a reading, today's medicines, the latest
          readings; then the meter, appointments, the trend and every reading. */}
      <div className="dashboard-top">
        <GlucoseEntry collection={async () => (await runtime.openDatabase()).glucose} settings={adviceSettingsOf(profile)} />
        <MedicinesCard db={db} notify={runtime.notify} notifySaved={runtime.notifySaved} />
      </div>
      <div className="grid-2">
        {readings && <TodaySummary readings={readings} />}
        <AppointmentsCard db={db} notify={runtime.notify} notifySaved={runtime.notifySaved} />
      </div>
      <MeterImport collection={async () => (await runtime.openDatabase()).glucose} />
      {readings && <TrendChart readings={readings} completeFrom={shownFrom} />}
      <GlucoseLists readings={readings} complete={!firstOnly} collection={db?.glucose} notify={runtime.notify} />
      {span === 'days' && readings && !firstOnly && (
        <p className="older-readings">
          <button type="button" className="button button--secondary" onClick={() => setSpan('all')}>
            <Trans>Show readings older than {DASHBOARD_DAYS} days</Trans>
          </button>
        </p>
      )}
    </div>
  );
}
