import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { ApiError } from '../../../sync/api-client.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';

/** Password login (spec §1). The one-time-code and access-key modes come with the patient screens. */
export function LoginForm() {
  const { t } = useLingui();
  const runtime = useRuntime();
  const navigate = useNavigate();
  const [hospNo, setHospNo] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const ids = { hospNo: useId(), password: useId(), error: useId() };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await runtime.session.login({ method: 'password', hospNo: hospNo.trim(), password });
      runtime.notify({ type: 'success', text: t`You have successfully logged in.` });
      await navigate({ to: '/app' });
    } catch (err) {
      // Wrong credentials get the server's message; no answer at all gets the retry message.
      setError(err instanceof ApiError && err.status !== 0 ? err.message : t`Something went wrong. Please try again.`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} aria-describedby={error ? ids.error : undefined} noValidate>
      <div className="field">
        <label htmlFor={ids.hospNo}>
          <Trans>Hospital number</Trans>
        </label>
        <input id={ids.hospNo} name="hospNo" autoComplete="username" inputMode="text" required value={hospNo} onChange={(e) => setHospNo(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={ids.password}>
          <Trans>Password</Trans>
        </label>
        <input id={ids.password} name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {error && (
        <p id={ids.error} className="error-text" role="alert">
          {error}
        </p>
      )}
      <button className="button" type="submit" disabled={busy || !hospNo.trim() || !password}>
        <Trans>Log in</Trans>
      </button>
    </form>
  );
}
