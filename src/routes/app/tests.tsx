import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { LabHistory } from '../../features/labs/lab-history.tsx';
import { LabTestForm } from '../../features/labs/lab-test-form.tsx';
import { useLabTestActions } from '../../features/labs/use-lab-test-actions.tsx';
import { useDatabase, useLiveDocs } from '../../lib/use-live.ts';

export const Route = createFileRoute('/app/tests')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Lab tests`);
  const db = useDatabase();
  const tests = useLiveDocs(db, (d) => d.labTests.find({ sort: [{ recordedAt: 'desc' }] }), []);
  // The reference list is sealed like everything else, so it is ordered here, not by the query.
  const reference = useLiveDocs(db, (d) => d.labTestReference.find(), []);
  const references = [...(reference ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const actions = useLabTestActions(db?.labTests, references);

  return (
    <>
      <h1>
        <Trans>Lab tests</Trans>
      </h1>
      <div className="grid-2">
        {db ? (
          <div className="card lab-add">
            <LabTestForm references={references} title={<Trans>Add a result</Trans>} submitLabel={<Trans>Add result</Trans>} onSubmit={actions.add} />
          </div>
        ) : (
          <p className="card" role="status">
            <Trans>Opening your data…</Trans>
          </p>
        )}
        <LabHistory tests={tests} onEdit={actions.onEdit} onDelete={actions.onDelete} />
      </div>
      {actions.dialogs}
    </>
  );
}
