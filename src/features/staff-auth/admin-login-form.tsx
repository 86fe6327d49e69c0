import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type FormEvent } from 'react';
import { inBackground } from '../../../sync/log.ts';
import { staffRuntime } from '../../lib/staff-runtime.ts';
import { toast } from '../../lib/ui/toast-store.ts';
import { staffFailure } from './staff-errors.ts';
import { TextField } from '../../components/text-field.tsx';
import './staff-auth.css';

/** Admin login (docs/requirements.md §4): e-mail and password; a failure keeps both fields. */
export function AdminLoginForm() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string | undefined; password?: string | undefined }>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const failureId = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const address = email.trim();
    const found = { email: address ? undefined : t`Enter your e-mail address.`, password: password ? undefined : t`Enter your password.` };
    setErrors(found);
    setFailure(undefined);
    if (found.email) return emailRef.current?.focus();
    if (found.password) return passwordRef.current?.focus();
    setBusy(true);
    try {
      await staffRuntime.session.loginAdmin(address, password);
      toast({ type: 'success', text: t`You have successfully logged in.` });
      await navigate({ to: '/admin/hospital-select' });
    } catch (err) {
      const text = staffFailure(err, t`An unexpected error occurred`);
      setFailure(text);
      toast({ type: 'error', text });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="staff-form" onSubmit={(e) => inBackground(submit(e), 'Staff login failed')} noValidate aria-describedby={failure ? failureId : undefined}>
      <TextField
        ref={emailRef}
        label={<Trans>Email</Trans>}
        type="email"
        name="email"
        inputMode="email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={email}
        onValueChange={(v) => (setEmail(v), setErrors((x) => ({ ...x, email: undefined })))}
        error={errors.email}
      />
      <TextField
        ref={passwordRef}
        label={<Trans>Password</Trans>}
        type="password"
        name="password"
        autoComplete="current-password"
        value={password}
        onValueChange={(v) => (setPassword(v), setErrors((x) => ({ ...x, password: undefined })))}
        error={errors.password}
      />
      {failure && (
        <p id={failureId} className="error-text staff-failure" role="alert">
          {failure}
        </p>
      )}
      <button className="button staff-submit" type="submit" disabled={busy}>
        <Trans>Log in</Trans>
      </button>
    </form>
  );
}
