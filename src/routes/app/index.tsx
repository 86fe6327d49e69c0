import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { usePageTitle } from '../../components/page-title.tsx';
import { GlucoseEntry } from '../../features/glucose/glucose-entry.tsx';
import { GlucoseLists } from '../../features/glucose/glucose-lists.tsx';
import { useGlucoseReadings, type GlucoseCollection } from '../../features/glucose/use-glucose.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

export const Route = createFileRoute('/app/')({ component: Dashboard });

function Dashboard() {
  const { t } = useLingui();
  usePageTitle(t`Dashboard`);
  const runtime = useRuntime();
  const [collection, setCollection] = useState<GlucoseCollection | undefined>();
  useEffect(() => {
    let live = true;
    void runtime.openDatabase().then((db) => {
      if (live) setCollection(db.glucose);
    });
    return () => {
      live = false;
    };
  }, [runtime]);
  const readings = useGlucoseReadings(collection);

  return (
    <>
      <h1>
        <Trans>Dashboard</Trans>
      </h1>
      {collection ? (
        <GlucoseEntry collection={collection} onSaved={(text) => runtime.notify({ type: 'success', text })} />
      ) : (
        <p className="card" role="status">
          <Trans>Opening your data…</Trans>
        </p>
      )}
      <GlucoseLists readings={readings} />
    </>
  );
}
