import { createFileRoute, Link, Outlet } from '@tanstack/react-router';
import { Trans } from '@lingui/react/macro';

// Layout "app": the patient's pages.
export const Route = createFileRoute('/app')({ component: AppLayout });

function AppLayout() {
  return (
    <>
      <header className="app-header">
        <strong>Eddy</strong>
        <nav className="app-nav">
          <Link to="/app">
            <Trans>Dashboard</Trans>
          </Link>
          <Link to="/app/symptoms">
            <Trans>Symptoms</Trans>
          </Link>
          <Link to="/app/tests">
            <Trans>Lab tests</Trans>
          </Link>
          <Link to="/app/reports">
            <Trans>Reports</Trans>
          </Link>
          <Link to="/app/profile">
            <Trans>Profile</Trans>
          </Link>
        </nav>
      </header>
      <main>
        <Outlet />
      </main>
    </>
  );
}
