import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { uuidv7 } from '../../../sync/ids.ts';
import { adviceFor, GlucoseAdvice, type GlucoseAdviceKind } from './advice.tsx';
import { GlucoseForm, type EnteredGlucose } from './glucose-form.tsx';
import { defaultGlucoseType } from './units.ts';
import type { GlucoseCollection } from './use-glucose.ts';

/**
 * Quick entry on the dashboard: saved on the device at once, sent when the server can be reached.
 * Shown from the first paint, while the local database still opens (a form that replaced a
 * "loading" line moved everything below it): a reading saved meanwhile waits for it.
 */
export function GlucoseEntry({ collection, onSaved }: { collection: () => Promise<GlucoseCollection>; onSaved: (text: string) => void }) {
  const { t } = useLingui();
  // The suggested type follows the time the form was opened; the person can change it.
  const [initialType] = useState(() => defaultGlucoseType(new Date()));
  // A dangerous value gets advice at once instead of a success notice (issue 16).
  const [advice, setAdvice] = useState<{ kind: GlucoseAdviceKind; reading: EnteredGlucose } | undefined>();
  return (
    <section className="card glucose-entry" aria-labelledby="glucose-entry-title">
      <h2 id="glucose-entry-title">
        <Trans>Record a glucose reading</Trans>
      </h2>
      <GlucoseForm
        initial={{ type: initialType }}
        timeFollowsNow
        submitLabel={t`Save reading`}
        onSubmit={async ({ type, reading, recordedAt }) => {
          await (await collection()).insert({ _id: uuidv7(), type, ...reading, recordedAt: recordedAt.toISOString() });
          const kind = adviceFor(reading);
          if (kind) setAdvice({ kind, reading });
          else onSaved(t`Glucose reported successfully`);
        }}
      />
      <GlucoseAdvice advice={advice} onClose={() => setAdvice(undefined)} />
    </section>
  );
}
