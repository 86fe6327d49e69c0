import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';

export const Route = createFileRoute('/app/tests')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Lab tests`);
  return (
    <section className="card">
      <h1>
        <Trans>Lab tests</Trans>
      </h1>
      <p>
        <Trans>Your lab results will be listed here in a later update.</Trans>
      </p>
    </section>
  );
}
