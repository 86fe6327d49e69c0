import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';

export const Route = createFileRoute('/_login/')({ component: LoginPage });

function LoginPage() {
  const { t } = useLingui();
  usePageTitle(t`Log in`);
  return (
    <section className="card">
      <h1>
        <Trans>Log in</Trans>
      </h1>
    </section>
  );
}
