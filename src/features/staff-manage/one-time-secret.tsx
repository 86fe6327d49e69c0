// A secret the server shows only once (access key, temporary password, doctor token): a highlighted
// box the admin can copy from, with a warning that it cannot be shown again.
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { inBackground } from '../../../sync/background.ts';

export interface OneTimeSecretProps {
  label: string;
  value: string;
  /** ISO instant after which the secret no longer works. */
  expiresAt?: string | undefined;
  /** A ready link to hand over (doctor tokens). */
  link?: string | undefined;
}

export function OneTimeSecret({ label, value, expiresAt, link }: OneTimeSecretProps) {
  const { t, i18n } = useLingui();
  const [copied, setCopied] = useState<string | undefined>();
  async function copy(what: string, text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(what);
    } catch {
      setCopied('failed');
    }
  }
  const expiry = expiresAt ? new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(expiresAt)) : undefined;
  return (
    <div className="sm-secret" role="status">
      <p className="sm-secret-label">{label}</p>
      <div className="sm-secret-row">
        <code className="sm-secret-value" dir="ltr" data-testid="one-time-secret">
          {value}
        </code>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => inBackground(copy('value', value), 'Copying to the clipboard failed')}
        >
          <Trans>Copy</Trans>
        </button>
      </div>
      {link && (
        <div className="sm-secret-row">
          <code className="sm-secret-value sm-secret-link" dir="ltr">
            {link}
          </code>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => inBackground(copy('link', link), 'Copying to the clipboard failed')}
          >
            <Trans>Copy link</Trans>
          </button>
        </div>
      )}
      {expiry && (
        <p>
          <Trans>Valid until {expiry}</Trans>
        </p>
      )}
      <p className="sm-secret-warning">
        <strong>
          <Trans>Write it down or copy it now: it will not be shown again.</Trans>
        </strong>
      </p>
      <p className="muted" aria-live="polite">
        {copied === 'value' && t`Copied.`}
        {copied === 'link' && t`Link copied.`}
        {copied === 'failed' && t`Copying is not allowed here; select the text and copy it instead.`}
      </p>
    </div>
  );
}
