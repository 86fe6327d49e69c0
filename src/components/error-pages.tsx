// The 404 and generic error pages (docs/requirements.md §2, §8). They stand alone: the error page replaces the whole
// root layout, so it must not rely on anything the layout sets up.
import { Link, useLocation, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { inBackground } from '../../sync/background.ts';
import { log } from '../../sync/log.ts';
import { loader } from '../lib/ui/loader-store.ts';
import { Icon } from './icon.tsx';
import { usePageTitle } from './page-title.tsx';

export function NotFoundPage() {
  const { t } = useLingui();
  const path = useLocation({ select: (l) => l.pathname });
  usePageTitle(t`Page Not Found`);
  return (
    <main className="status-page">
      <section className="card status-card" aria-labelledby="status-heading">
        <Icon icon="mdi:map-marker-question" className="status-icon" />
        <p className="status-code" aria-hidden>
          404
        </p>
        <h1 id="status-heading">
          <Trans>Page Not Found</Trans>
        </h1>
        <p className="status-message">
          <Trans>Page not found: {path}</Trans>
        </p>
        <p className="status-hint">
          <Trans>The address may be mistyped, or the page may have moved.</Trans>
        </p>
        <div className="status-actions">
          <Link to="/" className="button">
            <Icon icon="mdi:home" />
            <Trans>Go to the start page</Trans>
          </Link>
        </div>
      </section>
    </main>
  );
}

export function ErrorPage({ error, reset }: ErrorComponentProps) {
  const { t } = useLingui();
  const router = useRouter();
  usePageTitle(t`Internal Server Error`);
  const detail = error instanceof Error && error.message ? error.message : undefined;

  useEffect(() => {
    log.error('Page failed', error);
    // The layout that held the overlay is gone; a loader left open would cover the page on "Try again".
    loader.hideAll();
  }, [error]);

  const retry = () => {
    reset();
    inBackground(router.invalidate(), 'Reloading the page after an error failed');
  };

  return (
    <main className="status-page">
      <section className="card status-card" role="alert" aria-labelledby="status-heading">
        <Icon icon="mdi:alert-octagon" className="status-icon status-icon--error" />
        <h1 id="status-heading">
          <Trans>Internal Server Error</Trans>
        </h1>
        <p className="status-hint">
          <Trans>Something went wrong while showing this page. Please try again. If it keeps happening, contact your care team.</Trans>
        </p>
        {detail && (
          <details className="status-details">
            <summary>
              <Trans>Technical details</Trans>
            </summary>
            <code>{detail}</code>
          </details>
        )}
        <div className="status-actions">
          <button type="button" className="button" onClick={retry}>
            <Icon icon="mdi:refresh" />
            <Trans>Try again</Trans>
          </button>
          <Link to="/" className="button button--secondary">
            <Icon icon="mdi:home" />
            <Trans>Go to the start page</Trans>
          </Link>
        </div>
      </section>
    </main>
  );
}
