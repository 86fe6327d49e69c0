import { createFileRoute, redirect } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { LoginForm } from '../../features/auth/login-form.tsx';
import { runtime } from '../../lib/runtime.ts';

export const Route = createFileRoute('/_login/')({
  // Authenticated users on / go to /app (spec §2).
  beforeLoad: async () => {
    const state = await runtime.ensureRestored().then(() => runtime.session.state);
    if (state.status === 'logged-in') throw redirect({ to: '/app' });
  },
  component: LoginPage,
});

function LoginPage() {
  const { t } = useLingui();
  usePageTitle(t`Log in`);
  return (
    <section className="card login-card">
      <h1>
        <Trans>Log in</Trans>
      </h1>
      <p className="muted">
        <Trans>Record your glucose readings and keep your care team informed, also without Wi-Fi.</Trans>
      </p>
      <LoginForm />
    </section>
  );
}
