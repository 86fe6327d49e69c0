import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useEffectEvent, useId, useRef, useState, type FormEvent } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { useStaffRuntime } from '../../lib/runtime-context.tsx';
import { toast } from '../../lib/ui/toast-store.ts';
import { staffFailure } from './staff-errors.ts';
import { TextField } from '../../components/text-field.tsx';
import './staff-auth.css';

/**
 * Doctor entry (docs/requirements.md §4): a token pasted here, or handed in by a link `/admin?doctorToken=…`
 * (`linkToken`), which is used once and taken out of the address so it does not stay in history.
 */
export function DoctorEntry({ linkToken, onLinkTokenUsed }: { linkToken: string | undefined; onLinkTokenUsed: () => void }) {
  const { t } = useLingui();
  const staffRuntime = useStaffRuntime();
  const navigate = useNavigate();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const failureId = useId();
  const tokenRef = useRef<HTMLInputElement>(null);
  // StrictMode runs effects twice: the link's token must be sent once.
  const usedLink = useRef<string | undefined>(undefined);

  /** A link's token leaves the address either way: replaced by the next page, or removed on failure. */
  async function enter(value: string, fromLink: boolean) {
    setBusy(true);
    setFailure(undefined);
    try {
      await staffRuntime.session.loginDoctor(value);
      toast({ type: 'success', text: t`You have successfully logged in as doctor.` });
      await navigate({ to: '/admin/hospital-select', replace: fromLink });
    } catch (err) {
      if (fromLink) onLinkTokenUsed();
      const text = staffFailure(err, t`An unexpected error occurred`);
      setFailure(text);
      toast({ type: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  // A link's token is used once, as it arrives; what `enter` reads then is the render's own.
  const enterFromLink = useEffectEvent((token: string) => inBackground(enter(token, true), 'Doctor entry failed'));
  useEffect(() => {
    if (!linkToken || usedLink.current === linkToken) return;
    usedLink.current = linkToken;
    enterFromLink(linkToken);
  }, [linkToken]);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const value = token.trim();
    if (!value) {
      setError(t`Paste the doctor token you were given.`);
      tokenRef.current?.focus();
      return;
    }
    setError(undefined);
    inBackground(enter(value, false), 'Doctor entry failed');
  }

  return (
    <form className="staff-form" onSubmit={submit} noValidate aria-describedby={failure ? failureId : undefined}>
      <TextField
        ref={tokenRef}
        label={<Trans>Doctor token</Trans>}
        name="doctorToken"
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        value={token}
        onValueChange={(v) => (setToken(v), setError(undefined))}
        error={error}
        hint={<Trans>Doctors: paste the token from your invitation, or open the link you received.</Trans>}
      />
      {failure && (
        <p id={failureId} className="error-text staff-failure" role="alert">
          {failure}
        </p>
      )}
      <button className="button button--secondary staff-submit" type="submit" disabled={busy}>
        <Trans>Enter as doctor</Trans>
      </button>
    </form>
  );
}
