// The patient's results, one card per test, the test with the most recent result first.
import { Trans } from '@lingui/react/macro';
import type { LabTest } from '../../../schemas/lab-test.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { groupByTest } from './lab-rules.ts';
import { LabTestCard, type LabTestActions } from './lab-test-card.tsx';
import './labs.css';

export function LabHistory({ tests, ...actions }: { tests: LabTest[] | undefined } & LabTestActions) {
  return (
    <section className="lab-history" aria-labelledby="lab-history-title">
      <h2 id="lab-history-title">
        <Trans>Your results</Trans>
      </h2>
      {!tests ? (
        <p className="card" role="status">
          <Trans>Loading your results…</Trans>
        </p>
      ) : tests.length === 0 ? (
        <div className="card">
          <EmptyState icon="mdi:flask">
            <Trans>No lab results yet. Add a result from your last blood or urine test, for example your HbA1c, to follow it over time.</Trans>
          </EmptyState>
        </div>
      ) : (
        groupByTest(tests).map((group) => <LabTestCard key={group.key} group={group} {...actions} />)
      )}
    </section>
  );
}
