import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { requestLaterFiles } from '../lib/fetch-later.ts';
import { StaffHeader } from '../features/staff-auth/staff-header.tsx';

// Layout "admin" (file _staff): the staff area once logged in. Only the staff session counts here:
// a patient's session (the patient runtime, its own token) never opens it (docs/requirements.md §4).
export const Route = createFileRoute('/_staff')({
  beforeLoad: async ({ context: { staffRuntime } }) => {
    await staffRuntime.ensureRestored();
    if (staffRuntime.session.state.status !== 'logged-in') throw redirect({ to: '/admin' });
  },
  component: AdminLayout,
});

function AdminLayout() {
  const { i18n } = useLingui();
  // Logged in: the PDF engine and this language's fonts come now, for an offline PDF later.
  useEffect(() => requestLaterFiles(i18n.locale), [i18n.locale]);
  return (
    <div className="staff-layout">
      <a className="skip-link" href="#staff-main">
        <Trans>Skip to content</Trans>
      </a>
      <StaffHeader />
      <main id="staff-main" className="staff-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
