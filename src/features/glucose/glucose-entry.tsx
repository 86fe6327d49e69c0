import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { AdviceSettings } from '../../../schemas/user-profile.ts';
import { uuidv7 } from '../../../sync/ids.ts';
import { adviceFor, GlucoseAdvice, type GlucoseAdviceState } from './advice.tsx';
import { GlucoseForm } from './glucose-form.tsx';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';
import { defaultGlucoseType } from './units.ts';
import type { GlucoseCollection } from './use-glucose.ts';

/**
 * Quick entry on the dashboard: saved on the device at once, sent when the server can be reached.
 * Shown from the first paint, while the local database still opens (a form that replaced a
 * "loading" line moved everything below it): a reading saved meanwhile waits for it. `settings`
 * are the patient's hospital's (its urgent level and care contact), or the defaults.
 */
export function GlucoseEntry({ collection, settings }: { collection: () => Promise<GlucoseCollection>; settings: AdviceSettings }) {
  const { t } = useLingui();
  const runtime = useRuntime();
  const unit = useGlucoseUnit();
  // The suggested type follows the time the form was opened; the person can change it.
  const [initialType] = useState(() => defaultGlucoseType(new Date()));
  // A dangerous value gets advice at once instead of a success notice.
  const [advice, setAdvice] = useState<GlucoseAdviceState | undefined>();
  return (
    <section className="card glucose-entry" aria-labelledby="glucose-entry-title">
      <h2 id="glucose-entry-title">
        <Trans>Record a glucose reading</Trans>
      </h2>
      <GlucoseForm
        initial={{ type: initialType }}
        timeFollowsNow
        submitLabel={t`Save reading`}
        onSubmit={async ({ type, reading, recordedAt, utcOffsetMinutes }) => {
          await (
            await collection()
          ).insert({ _id: uuidv7(), type, ...reading, recordedAt: recordedAt.toISOString(), ...(utcOffsetMinutes === undefined ? {} : { utcOffsetMinutes }) });
          const grade = adviceFor(reading, unit, settings);
          if (grade) setAdvice({ grade, reading, offline: runtime.savesOffline() });
          else runtime.notifySaved(t`Glucose reported successfully`);
        }}
      />
      <GlucoseAdvice advice={advice} settings={settings} onClose={() => setAdvice(undefined)} />
    </section>
  );
}
