import { createFileRoute, Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { usePageTitle } from '../../components/page-title.tsx';
import { CookiePreferences } from '../../features/consent/cookie-preferences.tsx';
import { PrivacyPolicy } from '../../features/privacy/privacy-policy.tsx';

// The privacy policy the cookie banner links to: open to everyone, logged in or not.
export const Route = createFileRoute('/_login/privacy')({ component: PrivacyPage });

function PrivacyPage() {
  const { t } = useLingui();
  usePageTitle(t`Privacy Policy`);
  return (
    <div className="privacy-page">
      <p>
        <Link to="/">
          <Trans>Back to Eddy</Trans>
        </Link>
      </p>
      <h1>
        <Trans>Privacy Policy</Trans>
      </h1>
      <PrivacyPolicy />
      <section className="card" aria-labelledby="privacy-choice">
        <h2 id="privacy-choice">
          <Trans>Your cookie choice</Trans>
        </h2>
        <CookiePreferences />
      </section>
    </div>
  );
}
