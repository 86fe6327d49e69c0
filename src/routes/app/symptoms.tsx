import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { SymptomForm } from '../../features/symptoms/symptom-form.tsx';
import { SymptomHistory } from '../../features/symptoms/symptom-history.tsx';
import { useSymptomRemoval } from '../../features/symptoms/use-symptom-removal.tsx';
import { useDatabase, useLiveDocs } from '../../lib/use-live.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

export const Route = createFileRoute('/app/symptoms')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Symptoms`);
  const runtime = useRuntime();
  const db = useDatabase();
  const reports = useLiveDocs(db, (d) => d.symptoms.find({ sort: [{ recordedAt: 'desc' }] }), []);
  // The reference list is sealed like everything else, so it is ordered here, not by the query.
  const reference = useLiveDocs(db, (d) => d.symptomReference.find(), []);
  const names = [...(reference ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((r) => r.name);
  const removal = useSymptomRemoval(db?.symptoms);

  return (
    <>
      <h1>
        <Trans>Symptoms</Trans>
      </h1>
      <div className="grid-2">
        {db ? (
          <SymptomForm collection={db.symptoms} names={names} onSaved={runtime.notifySaved} />
        ) : (
          <p className="card" role="status">
            <Trans>Opening your data…</Trans>
          </p>
        )}
        <SymptomHistory reports={reports} onRemove={removal.ask} />
      </div>
      {removal.dialog}
    </>
  );
}
