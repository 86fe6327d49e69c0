import { createFileRoute, Link, Outlet, redirect, useNavigate, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { freshness } from '../../sync/storage/secure-storage.ts';
import { Icon } from '../components/icon.tsx';
import { InstallBanner } from '../components/install-banner.tsx';
import { LogoutButton as GuardedLogout } from '../features/auth/logout-button.tsx';
import { useProfile, type ProfileDocument } from '../features/profile/use-profile.ts';
import { RefusedNotice } from '../features/sync-issues/refused-notice.tsx';
import { ProfileZoneProvider, useClock } from '../lib/clock.tsx';
import { useDatabase } from '../lib/use-live.ts';
import { useRuntime, useSyncStatus } from '../lib/runtime-context.tsx';
import { inBackground } from '../../sync/background.ts';
import { requestLaterFiles } from '../lib/fetch-later.ts';
import { APP_NAME } from '../lib/locales.ts';
import type { BundledIconName } from '../lib/ui/icons/bundled-icons.ts';

// Layout "app": the patient's pages. Unauthenticated visitors go to / (docs/requirements.md §2).
export const Route = createFileRoute('/app')({
  beforeLoad: async ({ context: { runtime } }) => {
    await runtime.ensureRestored();
    if (runtime.session.state.status !== 'logged-in') throw redirect({ to: '/' });
  },
  component: AppLayout,
});

/** How long entries sent online may be on their way before the bar says so (see SyncBadge). */
const SENDING_NOTICE_AFTER_MS = 1_000;

/**
 * The page's path, from the router's own store. Not useLocation/useRouterState: in this lazily
 * loaded layout those split the router's code into more chunks, and the login route (which loads
 * them too) grew by 1.5 KB gzipped past its budget (tests/e2e/login-route.spec.ts).
 */
function usePathname(): string {
  const router = useRouter();
  return useSyncExternalStore(
    (changed) => router.subscribe('onResolved', changed),
    () => router.state.location.pathname,
  );
}

/** True once `on` has held for `ms` without a break; false at once when it stops. */
function useLasting(on: boolean, ms: number): boolean {
  const [lasted, setLasted] = useState(false);
  useEffect(() => {
    if (!on) return;
    const timer = setTimeout(() => setLasted(true), ms);
    return () => {
      clearTimeout(timer);
      setLasted(false);
    };
  }, [on, ms]);
  return on && lasted;
}

/**
 * Offline, or data past the 15-minute lifetime of medical data (docs/requirements.md §9): every screen says so and
 * says when it last synchronized, instead of showing old data as if it were current.
 *
 * The bar stands above the page, so its coming and going moves everything under it. Two rules keep
 * that from moving a button under a patient's finger:
 * - Entries sent online within SENDING_NOTICE_AFTER_MS are not announced: the bar is there (tests
 *   and the outbox agree on it) but hidden, and takes no room; a save does not flash it.
 * - A bar that was seen on a page keeps the most room it took there, whatever it says next, and does
 *   not vanish when the sync ends: it turns into "Up to date" until the patient opens another page
 *   (which redraws the page anyway); a save on that page then shows "Sending" at once. Measured
 *   at the top of the dashboard at 360 px: the page moved up 113 px (a layout shift of 0.134) when
 *   the offline bar went; now it does not move.
 */
function SyncBadge() {
  const { offline, pending, lastSyncAt, refused, stuck } = useSyncStatus();
  // One state at a time (issue 45): while an entry waits for a decision or keeps failing, nothing
  // here says "up to date" beside the notice that says so.
  const waiting = refused > 0 || stuck > 0;
  const clock = useClock();
  const path = usePathname();
  const outdated = lastSyncAt !== undefined && freshness(lastSyncAt, 'medical') === 'expired';
  const needed = offline || pending > 0 || outdated;
  const sendingAWhile = useLasting(pending > 0, SENDING_NOTICE_AFTER_MS);
  const bar = useRef<HTMLParagraphElement>(null);
  // The page the bar was seen on, and the most room it took there (0: not seen there yet).
  const [seen, setSeen] = useState<{ path: string; blockSize: number }>();
  // Another page lets go of the room held on the one before: coming back does not bring it back.
  if (seen && seen.path !== path) setSeen(undefined);
  const held = seen?.path === path ? seen.blockSize : 0;
  // Once seen on a page, the bar stays seen there: hiding it would take its room away.
  const visible = offline || outdated || sendingAWhile || held > 0;
  useLayoutEffect(() => {
    const el = bar.current;
    if (!needed || !el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() =>
      setSeen((before) => {
        // Grows from hidden (0) to seen and with its text; never shrinks on the same page.
        const blockSize = Math.max(before?.path === path ? before.blockSize : 0, el.offsetHeight);
        return before?.path === path && before.blockSize === blockSize ? before : { path, blockSize };
      }),
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [needed, path]);
  const room = held > 0 ? { minBlockSize: held } : undefined;
  const when = lastSyncAt ? clock.shortDateTime.format(lastSyncAt) : undefined;
  if (!needed) {
    if (!when || !room) return null;
    return (
      <p ref={bar} className="sync-badge sync-badge--done" role="status" data-testid="sync-done" style={room}>
        {waiting ? (
          <Trans>Last synchronized {when}.</Trans>
        ) : (
          <>
            <Icon icon="mdi:cloud-check-outline" /> <Trans>Up to date: last synchronized {when}.</Trans>
          </>
        )}
      </p>
    );
  }
  return (
    <p ref={bar} className={offline ? 'sync-badge sync-badge--offline' : 'sync-badge'} role="status" data-testid="sync-badge" hidden={!visible} style={room}>
      <Icon icon={offline ? 'mdi:cloud-off-outline' : 'mdi:refresh'} />{' '}
      {offline ? (
        <Trans>Offline: your entries are saved on this device and sent when you are back online.</Trans>
      ) : pending > 0 ? (
        <Trans>Sending your entries…</Trans>
      ) : null}{' '}
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
function LoggedInPatient({ profile }: { profile: ProfileDocument | null | undefined }) {
  const { t } = useLingui();
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

/**
 * The patient's pages while logged in. A session that ends (a 401 from any call or from the service
 * worker's replay, a token the server calls invalid) locks them at once: the lock screen replaces
 * every page, before the slower steps of locking finish (issue 45). Entries not yet sent stay sealed
 * on the device and go after the same patient logs in again.
 */
function AppLayout() {
  const { sessionEnded } = useRuntime();
  const ended = useSyncExternalStore(sessionEnded.subscribe, sessionEnded.get);
  // A logout of the patient's own keeps the page until its data is gone, then opens the login page.
  return ended ? <SessionEnded /> : <PatientShell />;
}

function SessionEnded() {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="session-ended" aria-labelledby="session-ended-title">
      <Icon icon="mdi:lock" className="session-ended-icon" />
      <h1 id="session-ended-title" ref={heading} tabIndex={-1}>
        <Trans>Your session has ended</Trans>
      </h1>
      <p>
        <Trans>For your safety the app is locked. Entries not sent yet stay on this device and are sent after you log in again.</Trans>
      </p>
      <button type="button" className="button button--primary" onClick={() => inBackground(navigate({ to: '/' }), 'Opening the login page failed')}>
        <Trans>Log in again</Trans>
      </button>
    </main>
  );
}

function PatientShell() {
  const { t, i18n } = useLingui();
  const profile = useProfile(useDatabase());
  // Logged in: the PDF engine and this language's fonts come now, for an offline PDF later.
  useEffect(() => requestLaterFiles(i18n.locale), [i18n.locale]);
  // Every time on the patient's screens names its zone when the profile's differs from this device's.
  return (
    <ProfileZoneProvider timeZone={profile?.timeZone || undefined}>
      <div className="app-layout">
        <a className="skip-link" href="#main">
          <Trans>Skip to content</Trans>
        </a>
        <header className="app-header">
          <Link to="/app" className="brand">
            <Icon icon="mdi:water" /> {APP_NAME}
          </Link>
          <LoggedInPatient profile={profile} />
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
          <InstallBanner />
        </main>
      </div>
    </ProfileZoneProvider>
  );
}
