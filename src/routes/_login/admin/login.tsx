import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../../components/page-title.tsx';

export const Route = createFileRoute('/_login/admin/login')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Staff login`);
  return (
    <section className="card">
      <h1>
        <Trans>Staff login</Trans>
      </h1>
      <p>
        <Trans>The staff login is coming in a later update.</Trans>
      </p>
    </section>
  );
}
