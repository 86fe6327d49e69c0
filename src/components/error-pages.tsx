import { Link, useLocation, type ErrorComponentProps } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from './page-title.tsx';

export function NotFoundPage() {
  const { t } = useLingui();
  const path = useLocation({ select: (l) => l.pathname });
  usePageTitle(t`Page Not Found`);
  return (
    <main>
      <section className="card" role="alert">
        <h1>
          <Trans>Page Not Found</Trans>
        </h1>
        <p>
          <Trans>Page not found: {path}</Trans>
        </p>
        <Link to="/">
          <Trans>Go to the start page</Trans>
        </Link>
      </section>
    </main>
  );
}

export function ErrorPage({ error }: ErrorComponentProps) {
  const { t } = useLingui();
  usePageTitle(t`Internal Server Error`);
  const message = error instanceof Error && error.message ? error.message : t`Internal Server Error`;
  return (
    <main>
      <section className="card" role="alert">
        <h1>
          <Trans>Internal Server Error</Trans>
        </h1>
        <p>{message}</p>
        <Link to="/">
          <Trans>Go to the start page</Trans>
        </Link>
      </section>
    </main>
  );
}
