import { createFileRoute } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../../components/page-title.tsx';

export const Route = createFileRoute('/_staff/admin/report')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Patient report`);
  return (
    <section className="card">
      <h1>
        <Trans>Patient report</Trans>
      </h1>
      <p>
        <Trans>The patient review is coming in a later update.</Trans>
      </p>
    </section>
  );
}
