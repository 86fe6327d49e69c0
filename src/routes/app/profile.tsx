import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';

export const Route = createFileRoute('/app/profile')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Profile`);
  return (
    <section className="card">
      <h1>
        <Trans>Profile</Trans>
      </h1>
      <p>
        <Trans>Your profile and reminder settings are coming in a later update.</Trans>
      </p>
    </section>
  );
}
