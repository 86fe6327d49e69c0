import { createFileRoute, redirect, useLocation } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { inBackground } from '../../../../sync/background.ts';
import { Icon } from '../../../components/icon.tsx';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { usePageTitle } from '../../../components/page-title.tsx';
import { AdminLoginForm } from '../../../features/staff-auth/admin-login-form.tsx';
import { DoctorEntry } from '../../../features/staff-auth/doctor-entry.tsx';
import { ProviderSignIn } from '../../../features/staff-auth/provider-sign-in.tsx';

interface AdminSearch {
  doctorToken?: string;
}

export const Route = createFileRoute('/_login/admin/')({
  validateSearch: (search: Record<string, unknown>): AdminSearch =>
    typeof search['doctorToken'] === 'string' && search['doctorToken'] ? { doctorToken: search['doctorToken'] } : {},
  // A staff member already logged in goes on to the hospitals, unless a doctor link asks to enter anew.
  beforeLoad: async ({ search, context: { staffRuntime } }) => {
    const state = await staffRuntime.ensureRestored().then(() => staffRuntime.session.state);
    if (state.status === 'logged-in' && !search.doctorToken) throw redirect({ to: '/admin/hospital-select' });
  },
  component: StaffLoginPage,
});

function StaffLoginPage() {
  const { t } = useLingui();
  const { doctorToken } = Route.useSearch();
  const navigate = Route.useNavigate();
  // What the hospital's identity provider sent back (a one-time code) travels in the fragment.
  const hash = useLocation({ select: (l) => l.hash });
  usePageTitle(t`Staff login`);
  return (
    <div className="staff-login">
      <header className="staff-login-brand">
        <span className="staff-login-mark">
          <Icon icon="mdi:medical-bag" />
        </span>
        <p className="staff-login-name">
          <Trans>Eddy staff area</Trans>
        </p>
        <LanguageSelect compact />
      </header>
      <ProviderSignIn
        hash={hash}
        onHashUsed={() =>
          inBackground(navigate({ to: '/admin', search: {}, hash: '', replace: true }), 'Removing the used sign-in code from the address failed')
        }
      />
      <section className="card" aria-labelledby="staff-login-title">
        <h1 id="staff-login-title">
          <Trans>Staff login</Trans>
        </h1>
        <p className="muted staff-login-intro">
          <Trans>For hospital staff: log in with the e-mail address and password of your staff account.</Trans>
        </p>
        <AdminLoginForm />
      </section>
      <section className="card" aria-labelledby="doctor-entry-title">
        <h2 id="doctor-entry-title">
          <Trans>Doctor entry</Trans>
        </h2>
        <DoctorEntry
          linkToken={doctorToken}
          onLinkTokenUsed={() => inBackground(navigate({ to: '/admin', search: {}, replace: true }), 'Removing the used doctor token from the address failed')}
        />
      </section>
    </div>
  );
}
