import { createFileRoute, Outlet } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';

// Layout "admin" (file _staff): the staff area once logged in.
export const Route = createFileRoute('/_staff')({ component: AdminLayout });

function AdminLayout() {
  return (
    <>
      <header className="app-header">
        <strong>
          <Trans>Eddy staff area</Trans>
        </strong>
      </header>
      <main>
        <Outlet />
      </main>
    </>
  );
}
