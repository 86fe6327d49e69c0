// Handing a patient a way in: a new access key (replaces the old one) or a temporary password,
// each shown once.
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { useStaffWrites } from '../../lib/staff-api.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { OneTimeSecret } from './one-time-secret.tsx';
import { failureText } from './staff-api.ts';

export function PatientSecrets({ hospNo }: { hospNo: string }) {
  const { t } = useLingui();
  const staffWrites = useStaffWrites();
  const id = useId();
  const [days, setDays] = useState('30');
  const [daysError, setDaysError] = useState<string | undefined>();
  const [key, setKey] = useState<{ accessKey: string; expiresAt: string } | undefined>();
  const [password, setPassword] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function issueKey(e: FormEvent) {
    e.preventDefault();
    const n = Number(days.trim());
    if (!/^\d+$/.test(days.trim()) || n < 1 || n > 365) {
      setDaysError(t`Enter a number of days from 1 to 365.`);
      return;
    }
    setDaysError(undefined);
    setFailure(undefined);
    setBusy(true);
    try {
      const res = await staffWrites.issueAccessKey(hospNo, n);
      setKey({ accessKey: res.accessKey, expiresAt: res.expiresAt });
      toast({ type: 'success', text: t`Access key issued` });
    } catch (err) {
      setFailure(failureText(err, t`The access key could not be issued. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  async function setTemporary() {
    setFailure(undefined);
    setBusy(true);
    try {
      const res = await staffWrites.setTemporaryPassword(hospNo);
      setPassword(res.temporaryPassword);
      toast({ type: 'success', text: t`Temporary password set` });
    } catch (err) {
      setFailure(failureText(err, t`The temporary password could not be set. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        <Trans>Access key and password</Trans>
      </h3>
      <p className="muted">
        <Trans>A new access key replaces the patient's previous one.</Trans>
      </p>
      <form noValidate className="sm-inline-form" onSubmit={(e) => inBackground(issueKey(e), 'Issuing the access key failed')}>
        <div className={daysError ? 'field field--error' : 'field'}>
          <label htmlFor={`${id}-days`}>
            <Trans>Valid for (days)</Trans>
          </label>
          <input
            id={`${id}-days`}
            inputMode="numeric"
            autoComplete="off"
            value={days}
            aria-invalid={daysError ? true : undefined}
            aria-describedby={daysError ? `${id}-days-error` : undefined}
            onChange={(e) => setDays(e.target.value)}
          />
          {daysError && (
            <p id={`${id}-days-error`} className="error-text">
              {daysError}
            </p>
          )}
        </div>
        <button type="submit" className="button" disabled={busy}>
          <Trans>Issue access key</Trans>
        </button>
      </form>
      {key && <OneTimeSecret label={t`New access key`} value={key.accessKey} expiresAt={key.expiresAt} />}
      <div className="form-actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() => inBackground(setTemporary(), 'Setting a temporary password failed')}
        >
          <Trans>Set a temporary password</Trans>
        </button>
      </div>
      {password && <OneTimeSecret label={t`Temporary password (the patient must change it after logging in)`} value={password} />}
      {failure && (
        <p className="error-text" role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
