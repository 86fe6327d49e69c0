import { createFileRoute, Link, Outlet, redirect } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { freshness } from '../../sync/secure-storage.ts';
import { Icon } from '../components/icon.tsx';
import { InstallBanner } from '../components/install-banner.tsx';
import { LogoutButton as GuardedLogout } from '../features/auth/logout-button.tsx';
import { useProfile } from '../features/profile/use-profile.ts';
import { RefusedNotice } from '../features/sync-issues/refused-notice.tsx';
import { useDatabase } from '../lib/db/use-live.ts';
import { useSyncStatus } from '../lib/runtime-context.tsx';
import { requestLaterFiles } from '../lib/fetch-later.ts';
import { APP_NAME } from '../lib/locales.ts';
import { runtime } from '../lib/runtime.ts';
import type { BundledIconName } from '../lib/ui/icons/bundled-icons.ts';

// Layout "app": the patient's pages. Unauthenticated visitors go to / (docs/requirements.md §2).
export const Route = createFileRoute('/app')({
  beforeLoad: async () => {
    await runtime.ensureRestored();
    if (runtime.session.state.status !== 'logged-in') throw redirect({ to: '/' });
  },
  component: AppLayout,
});

/**
 * Offline, or data past the 15-minute lifetime of medical data (docs/requirements.md §9): every screen says so and
 * says when it last synchronized, instead of showing old data as if it were current.
 */
function SyncBadge() {
  const { offline, pending, lastSyncAt } = useSyncStatus();
  const { i18n } = useLingui();
  const outdated = lastSyncAt !== undefined && freshness(lastSyncAt, 'medical') === 'expired';
  if (!offline && pending === 0 && !outdated) return null;
  const when = lastSyncAt ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'short', timeStyle: 'short' }).format(lastSyncAt) : undefined;
  return (
    <p className={offline ? 'sync-badge sync-badge--offline' : 'sync-badge'} role="status" data-testid="sync-badge">
      <Icon icon={offline ? 'mdi:cloud-off-outline' : 'mdi:refresh'} />{' '}
      {offline ? <Trans>Offline: your entries are saved on this device and sent when you are back online.</Trans> : pending > 0 ? <Trans>Sending your entries…</Trans> : null}{' '}
      {when ? (
        outdated ? (
          <Trans>This data may be out of date: last synchronized {when}.</Trans>
        ) : (
          <Trans>Last synchronized {when}.</Trans>
        )
      ) : offline ? (
        <Trans>Not synchronized yet on this device.</Trans>
      ) : null}
    </p>
  );
}

/**
 * Whose data this is, on every screen (issue 16): on a ward tablet shared by patients, the name and
 * hospital number of whoever is logged in stay in the header.
 */
function LoggedInPatient() {
  const { t } = useLingui();
  const profile = useProfile(useDatabase());
  if (!profile) return null;
  return (
    <p className="app-identity" data-testid="app-identity">
      <span className="app-identity-name">{profile.name}</span>
      <span className="app-identity-number">
        <span className="app-identity-label">{t`Hospital number`}</span> <bdi>{profile.hospNum}</bdi>
      </span>
    </p>
  );
}

function LogoutButton() {
  return (
    <GuardedLogout className="header-button">
      <Icon icon="mdi:logout" />
      <span>
        <Trans>Log out</Trans>
      </span>
    </GuardedLogout>
  );
}

type AppPath = '/app' | '/app/symptoms' | '/app/tests' | '/app/reports' | '/app/profile';

function NavItem({ to, icon, children }: { to: AppPath; icon: BundledIconName; children: React.ReactNode }) {
  return (
    <Link to={to} className="nav-item" activeOptions={{ exact: true }} activeProps={{ 'aria-current': 'page' }}>
      <Icon icon={icon} className="nav-icon" />
      <span>{children}</span>
    </Link>
  );
}

function AppLayout() {
  const { t, i18n } = useLingui();
  // Logged in: the PDF engine and this language's fonts come now, for an offline PDF later.
  useEffect(() => requestLaterFiles(i18n.locale), [i18n.locale]);
  return (
    <div className="app-layout">
      <a className="skip-link" href="#main">
        <Trans>Skip to content</Trans>
      </a>
      <header className="app-header">
        <Link to="/app" className="brand">
          <Icon icon="mdi:water" /> {APP_NAME}
        </Link>
        <LoggedInPatient />
        <LogoutButton />
      </header>
      <nav className="app-nav" aria-label={t`Main`}>
        <NavItem to="/app" icon="mdi:view-dashboard">
          <Trans>Dashboard</Trans>
        </NavItem>
        <NavItem to="/app/symptoms" icon="mdi:thermometer">
          <Trans>Symptoms</Trans>
        </NavItem>
        <NavItem to="/app/tests" icon="mdi:flask">
          <Trans>Lab tests</Trans>
        </NavItem>
        <NavItem to="/app/reports" icon="mdi:file-chart">
          <Trans>Reports</Trans>
        </NavItem>
        <NavItem to="/app/profile" icon="mdi:account">
          <Trans>Profile</Trans>
        </NavItem>
      </nav>
      <SyncBadge />
      <RefusedNotice />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <InstallBanner />
    </div>
  );
}
