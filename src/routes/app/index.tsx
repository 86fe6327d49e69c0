import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';

export const Route = createFileRoute('/app/')({ component: Dashboard });

function Dashboard() {
  const { t } = useLingui();
  usePageTitle(t`Dashboard`);
  return (
    <section className="card">
      <h1>
        <Trans>Dashboard</Trans>
      </h1>
    </section>
  );
}
