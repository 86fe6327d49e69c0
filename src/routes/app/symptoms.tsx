import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';

export const Route = createFileRoute('/app/symptoms')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Symptoms`);
  return (
    <section className="card">
      <h1>
        <Trans>Symptoms</Trans>
      </h1>
      <p>
        <Trans>Symptom reporting is coming in a later update.</Trans>
      </p>
    </section>
  );
}
