import { createFileRoute, Link, redirect } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Icon } from '../../components/icon.tsx';
import { LanguageSelect } from '../../components/language-select.tsx';
import { usePageTitle } from '../../components/page-title.tsx';
import { LoginForm } from '../../features/auth/login-form.tsx';
import { PasswordHelp } from '../../features/auth/password-help.tsx';
import { APP_NAME } from '../../lib/locales.ts';

export const Route = createFileRoute('/_login/')({
  // Authenticated users on / go to /app (docs/requirements.md §2).
  beforeLoad: async ({ context: { runtime } }) => {
    const state = await runtime.ensureRestored().then(() => runtime.session.state);
    if (state.status === 'logged-in') throw redirect({ to: '/app' });
  },
  component: LoginPage,
});

function LoginPage() {
  const { t } = useLingui();
  usePageTitle(t`Log in`);
  return (
    <div className="login-page">
      <header className="login-brand">
        <span className="login-brand-mark">
          <Icon icon="mdi:water" />
        </span>
        <div className="login-brand-text">
          <p className="login-brand-name">{APP_NAME}</p>
          <p className="login-brand-tagline">
            <Trans>Diabetes care from your hospital</Trans>
          </p>
        </div>
        <LanguageSelect compact />
      </header>
      <section className="card">
        <h1>
          <Trans>Log in</Trans>
        </h1>
        <p className="muted login-intro">
          <Trans>
            Use your hospital number with your password, a one-time code or the access key from your hospital. Your readings are kept on this device and sent
            when there is a connection.
          </Trans>
        </p>
        <LoginForm />
      </section>
      <PasswordHelp />
      <p className="login-footer">
        <Link to="/privacy">
          <Trans>Privacy Policy</Trans>
        </Link>
      </p>
    </div>
  );
}
