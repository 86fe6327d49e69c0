import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';

export const Route = createFileRoute('/app/reports')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Reports`);
  return (
    <section className="card">
      <h1>
        <Trans>Reports</Trans>
      </h1>
      <p>
        <Trans>Reports over a date range are coming in a later update.</Trans>
      </p>
    </section>
  );
}
