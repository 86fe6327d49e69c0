// Staff sign-in with the hospital account (issue 48): the card of the staff login with one button per
// identity provider, and why a sign-in through one signed nobody in, in the staff member's language.
// Its words are in the app's full catalog, which the staff login loads before showing the card
// (ensureFullCatalog): the login pages' own catalog, shared with the patient's login, stays within
// the login route's budget.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { OIDC_FAILURES, type OidcFailure } from '../../schemas/auth.ts';

const isOidcFailure = (v: string | undefined): v is OidcFailure => OIDC_FAILURES.some((f) => f === v);

/**
 * The card: the providers' buttons (each starts the sign-in at the server, which sends the browser on
 * to the provider); `failure` is a reason the provider's return named, or the server's own refusal.
 */
export function HospitalSignIn({ providers, failure, busy }: { providers: { id: string; name: string }[]; failure: string | undefined; busy: boolean }) {
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId} aria-busy={busy}>
      <h2 id={titleId}>
        <Trans>Hospital account</Trans>
      </h2>
      <p className="muted staff-login-intro">
        <Trans>Staff whose hospital has set it up: sign in with the account you use for the hospital's other systems.</Trans>
      </p>
      {failure && (
        <p className="error-text staff-failure" role="alert">
          {isOidcFailure(failure) ? <SignInFailure reason={failure} /> : failure}
        </p>
      )}
      {busy && (
        <p role="status">
          <Trans>Signing you in…</Trans>
        </p>
      )}
      <div className="staff-providers">
        {providers.map(({ id, name }) => (
          <a key={id} className="button staff-submit" href={`/api/admin/oidc/${encodeURIComponent(id)}/start`}>
            <Trans>Sign in with {name}</Trans>
          </a>
        ))}
      </div>
    </section>
  );
}

function SignInFailure({ reason }: { reason: OidcFailure }) {
  const { t } = useLingui();
  return <>{text()}</>;

  function text(): string {
    switch (reason) {
      case 'unreachable':
        return t`Your hospital's sign-in service cannot be reached. Try again, or sign in with your staff account's password.`;
      case 'expired':
        return t`That sign-in took too long or was used already. Please sign in again.`;
      case 'other-browser':
        return t`That sign-in was started in another browser or window. Please sign in again here.`;
      case 'denied':
        return t`The sign-in was cancelled at your hospital's sign-in page.`;
      case 'failed':
        return t`Your hospital's sign-in could not be completed. Please try again.`;
      case 'no-role':
        return t`Your hospital account is not given access to Eddy. Ask your IT service desk to add you to Eddy's staff group.`;
      case 'no-hospital':
        return t`Your hospital account is not given any hospital on this Eddy server. Ask your IT service desk.`;
      case 'no-email':
        return t`Your hospital account has no e-mail address, which an Eddy admin account needs. Ask your IT service desk.`;
      case 'email-taken':
        return t`A staff account with your e-mail address exists here already, and your hospital's sign-in does not confirm that the address is yours. Sign in with that account's password.`;
    }
  }
}
