// The second factor of an admin's login (issue 48): setting up the authenticator app (its QR code
// and key, then its first code) and the recovery codes it gives, shown once. Its words are in the
// app's full catalog, which the login form loads before showing these (ensureFullCatalog): the
// login pages' own catalog stays within the login route's budget.
import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { inBackground } from '../../sync/background.ts';

/** What the server gives to set an authenticator up: the key, its otpauth:// URI and that URI as a QR code. */
export interface AuthenticatorSetup {
  secret: string;
  uri: string;
  qrCode: string;
}

/** The key in groups of four, as authenticator apps show what is typed. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export function SetupAuthenticator({ setup, required, children }: { setup: AuthenticatorSetup; required: boolean; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <section className="staff-second-setup" aria-labelledby="staff-second-setup-title">
      <h2 id="staff-second-setup-title" className="staff-second-title">
        <Trans>Set up two-step sign-in</Trans>
      </h2>
      <p>
        {required ? (
          <Trans>Your hospital asks staff to sign in with a second step: a code from an authenticator app on your phone, as well as the password.</Trans>
        ) : (
          <Trans>From now on you will sign in with a code from an authenticator app on your phone, as well as the password.</Trans>
        )}
      </p>
      <ol className="staff-second-steps">
        <li>
          <Trans>Open an authenticator app (for example Microsoft Authenticator, Google Authenticator or FreeOTP) and scan this code.</Trans>
          <img className="staff-second-qr" src={setup.qrCode} width={240} height={240} alt={t`QR code that adds Eddy to your authenticator app`} />
          <span className="staff-second-key">
            <Trans>Or type this key:</Trans>{' '}
            <code dir="ltr" data-testid="authenticator-key">
              {grouped(setup.secret)}
            </code>
          </span>
        </li>
        <li>
          <Trans>Enter the 6-digit code the app now shows for Eddy.</Trans>
          {children}
        </li>
      </ol>
    </section>
  );
}

export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState<'done' | 'failed' | undefined>();
  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied('done');
    } catch {
      setCopied('failed');
    }
  }
  return (
    <section className="staff-second-setup" aria-labelledby="staff-recovery-title">
      <h2 id="staff-recovery-title" className="staff-second-title">
        <Trans>Your recovery codes</Trans>
      </h2>
      <p>
        <Trans>Two-step sign-in is set up. Each of these codes signs you in once when you do not have your phone.</Trans>
      </p>
      <ol className="staff-recovery-codes" dir="ltr" data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <p className="sm-secret-warning">
        <strong>
          <Trans>Keep them somewhere safe, away from your phone: they are shown only now.</Trans>
        </strong>
      </p>
      <div className="form-actions">
        <button type="button" className="button button--secondary" onClick={() => inBackground(copy(), 'Copying to the clipboard failed')}>
          <Trans>Copy the codes</Trans>
        </button>
        <button type="button" className="button staff-submit" onClick={onDone}>
          <Trans>I have kept them: continue</Trans>
        </button>
      </div>
      <p className="muted" aria-live="polite">
        {copied === 'done' && t`Copied.`}
        {copied === 'failed' && t`Copying is not allowed here; select the text and copy it instead.`}
      </p>
    </section>
  );
}
