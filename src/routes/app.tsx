import { createFileRoute, Link, Outlet, redirect, useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { freshness } from '../../sync/secure-storage.ts';
import { useRuntime, useSyncStatus } from '../lib/runtime-context.tsx';
import { runtime } from '../lib/runtime.ts';

// Layout "app": the patient's pages. Unauthenticated visitors go to / (spec §2).
export const Route = createFileRoute('/app')({
  beforeLoad: async () => {
    await runtime.ensureRestored();
    if (runtime.session.state.status !== 'logged-in') throw redirect({ to: '/' });
  },
  component: AppLayout,
});

function SyncBadge() {
  const { offline, pending, lastSyncAt } = useSyncStatus();
  const { i18n } = useLingui();
  // Past the 15-minute lifetime of medical data (spec §9) the screen says so instead of hiding it.
  const outdated = lastSyncAt !== undefined && freshness(lastSyncAt, 'medical') === 'expired';
  if (!offline && pending === 0 && !outdated) return null;
  const when = lastSyncAt ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'short' }).format(lastSyncAt) : undefined;
  return (
    <p className="sync-badge" role="status" data-testid="sync-badge">
      {offline ? <Trans>Offline: your entries are saved on this device and sent when you are back online.</Trans> : pending > 0 ? <Trans>Sending your entries…</Trans> : null}{' '}
      {outdated && when ? <Trans>This data may be out of date: last synchronized {when}.</Trans> : null}
    </p>
  );
}

function LogoutButton() {
  const { t } = useLingui();
  const r = useRuntime();
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="link-button"
      onClick={() =>
        void r.session.logout().then(() => {
          r.notify({ type: 'success', text: t`You have successfully logged out.` });
          return navigate({ to: '/' });
        })
      }
    >
      <Trans>Log out</Trans>
    </button>
  );
}

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
          <LogoutButton />
        </nav>
      </header>
      <SyncBadge />
      <main>
        <Outlet />
      </main>
    </>
  );
}
