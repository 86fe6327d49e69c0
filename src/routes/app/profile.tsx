import { createFileRoute, Link } from '@tanstack/react-router';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { inBackground } from '../../../sync/background.ts';
import { Icon } from '../../components/icon.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { usePageTitle } from '../../components/page-title.tsx';
import { ChangePasswordForm } from '../../features/auth/change-password-form.tsx';
import { CookiePreferences } from '../../features/consent/cookie-preferences.tsx';
import { LogoutButton } from '../../features/auth/logout-button.tsx';
import { MeterImport } from '../../features/meter/meter-import-card.tsx';
import { GlucometerAlerts } from '../../features/profile/glucometer-alerts.tsx';
import { InstallApp } from '../../features/profile/install-app.tsx';
import { MealTimingsForm } from '../../features/profile/meal-timings-form.tsx';
import { ProfileDetails } from '../../features/profile/profile-details.tsx';
import { ProfilePending } from '../../features/profile/profile-pending.tsx';
import { UnitPreference } from '../../features/profile/unit-preference.tsx';
import { RemindersSettings } from '../../features/reminders/reminders-settings.tsx';
import { useProfile } from '../../features/profile/use-profile.ts';
import { useDatabase } from '../../lib/use-live.ts';
import { useRuntime, useSession, useSyncStatus } from '../../lib/runtime-context.tsx';

export const Route = createFileRoute('/app/profile')({ component: Page });

function Page() {
  const { t } = useLingui();
  usePageTitle(t`Profile`);
  const runtime = useRuntime();
  const session = useSession();
  const { offline, pending } = useSyncStatus();
  const profile = useProfile(useDatabase());
  const hospNo = session.status === 'logged-in' ? session.session.hospNo : undefined;
  const saved = runtime.notifySaved;

  return (
    <>
      <h1>
        <Trans>Profile</Trans>
      </h1>
      {profile ? (
        <>
          <ProfileDetails profile={profile} />
          <div className="grid-2">
            <MealTimingsForm profile={profile} onSaved={saved} />
            <GlucometerAlerts profile={profile} />
          </div>
        </>
      ) : (
        <ProfilePending offline={offline && profile === null} />
      )}
      <div className="grid-2">
        <section className="card" aria-labelledby="settings-title">
          <h2 id="settings-title">
            <Trans>Settings on this device</Trans>
          </h2>
          <UnitPreference />
          {/* Reminders are worded in the language the server has for this device: tell it. */}
          <LanguageSelect onChanged={() => inBackground(runtime.reminders.refresh(), 'reminders: the new language could not be sent')} />
        </section>
        <RemindersSettings />
        <MeterImport collection={async () => (await runtime.openDatabase()).glucose} />
        <section className="card" aria-labelledby="install-title">
          <h2 id="install-title">
            <Trans>App</Trans>
          </h2>
          <InstallApp />
        </section>
        <section className="card" aria-labelledby="privacy-title">
          <h2 id="privacy-title">
            <Trans>Privacy</Trans>
          </h2>
          <p>
            <Link to="/privacy">
              <Trans>Privacy Policy: what Eddy keeps and why</Trans>
            </Link>
          </p>
          <CookiePreferences className="button button--secondary profile-action" />
        </section>
      </div>
      <div className="grid-2">
        <section className="card" aria-labelledby="password-title">
          <h2 id="password-title">
            <Trans>Change password</Trans>
          </h2>
          {hospNo !== undefined && <ChangePasswordForm hospNo={hospNo} />}
        </section>
        <section className="card" aria-labelledby="logout-title">
          <h2 id="logout-title">
            <Trans>Log out</Trans>
          </h2>
          <p className="field-hint">
            <Trans>Logging out removes your data from this device; your hospital keeps everything already sent.</Trans>
          </p>
          {pending > 0 && (
            <p className="error-text">
              <Plural
                value={pending}
                one="# entry has not been sent yet. Connect to the internet first, so it is not lost."
                other="# entries have not been sent yet. Connect to the internet first, so they are not lost."
              />
            </p>
          )}
          <LogoutButton className="button button--secondary profile-action">
            <Icon icon="mdi:logout" />
            <Trans>Log out</Trans>
          </LogoutButton>
        </section>
      </div>
    </>
  );
}
