import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../../components/page-title.tsx';

export const Route = createFileRoute('/_staff/admin/hospital-select')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Choose a hospital`);
  return (
    <section className="card">
      <h1>
        <Trans>Choose a hospital</Trans>
      </h1>
      <p>
        <Trans>Hospital selection is coming in a later update.</Trans>
      </p>
    </section>
  );
}
