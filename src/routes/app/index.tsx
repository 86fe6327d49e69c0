import { createFileRoute } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { AppointmentsCard } from '../../features/appointments/appointments-card.tsx';
import { ClockNote } from '../../features/dashboard/clock-note.tsx';
import { Greeting } from '../../features/dashboard/greeting.tsx';
import { adviceSettingsOf } from '../../../schemas/user-profile.ts';
import { GlucoseEntry } from '../../features/glucose/glucose-entry.tsx';
import { TodaySummary } from '../../features/glucose/today-summary.tsx';
import { useRecentReadings } from '../../features/glucose/use-recent-readings.ts';
import { MedicinesCard } from '../../features/medicines/medicines-card.tsx';
import { RemindersPrompt } from '../../features/reminders/reminders-prompt.tsx';
import type { ProfileDoc } from '../../../sync/storage/collections.ts';
import { useDatabase, useLiveDocs } from '../../lib/use-live.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

export const Route = createFileRoute('/app/')({ component: Dashboard });

function Dashboard() {
  const { t } = useLingui();
  usePageTitle(t`Dashboard`);
  const runtime = useRuntime();
  const db = useDatabase();
  // The advice after a reading follows the patient's hospital (its urgent level, its contact).
  const profile = useLiveDocs<ProfileDoc>(db, (d) => d.profile.find(), [])?.[0];
  // The latest of each type and today's: the first days, and the 90 days only when a type has no
  // reading in those.
  const { readings, firstOnly } = useRecentReadings(db, 'when-a-type-is-missing');

  // What a patient with a meter in one hand needs, in that order (issue 50: the phone dashboard was
  // some 5,000 px long): record a reading, today's medicines, the offer of reminders, the latest
  // readings and what needs attention, the appointments. The trend, every reading and the meter
  // import are on the readings page (/app/readings), linked from the latest readings.
  return (
    <div className="dashboard">
      <Greeting db={db} />
      <ClockNote />
      <div className="dashboard-top">
        <GlucoseEntry collection={async () => (await runtime.openDatabase()).glucose} settings={adviceSettingsOf(profile)} />
        <MedicinesCard db={db} notify={runtime.notify} notifySaved={runtime.notifySaved} />
      </div>
      <RemindersPrompt />
      <div className="grid-2">
        <TodaySummary readings={readings} complete={!firstOnly} />
        <AppointmentsCard db={db} notify={runtime.notify} notifySaved={runtime.notifySaved} />
      </div>
    </div>
  );
}
