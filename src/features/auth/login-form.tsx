import { useNavigate, useRouter } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { Suspense, useId, useRef, useState, type FormEvent } from 'react';
import { hospNo as hospNoSchema } from '../../../schemas/common.ts';
import type { LoginInput, PasswordChangeRequired } from '../../../sync/session.ts';
import { inBackground } from '../../../sync/background.ts';
import { preloadPatientCode } from '../../lib/preload.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { failureMessage } from './auth-errors.ts';
import { patientAuthApi } from '../../../sync/auth-api.ts';
import { TextField, PasswordField } from '../../components/text-field.tsx';
import { LoginMethodSwitch, type LoginMethod } from './login-method-switch.tsx';
import { OtpFields } from './otp-fields.tsx';
import { ChangePasswordForm } from './password-help.tsx';
import './auth.css';

const HOSP_NO_PATTERN = new RegExp(hospNoSchema.pattern);
const OTP_PATTERN = /^[0-9]{6}$/;

/** Told by name, not instanceof: the login page does not load the session's code for this (its budget). */
const isPasswordChangeRequired = (err: unknown): err is PasswordChangeRequired => err instanceof Error && err.name === 'PasswordChangeRequired';

type FieldName = 'hospNo' | 'secret';
type Errors = { [F in FieldName]?: string | undefined };

/**
 * Patient login (docs/requirements.md §1): the hospital number plus a password, a one-time code or an access key.
 * What was typed survives switching modes and failed attempts.
 */
export function LoginForm() {
  const { t } = useLingui();
  const runtime = useRuntime();
  const navigate = useNavigate();
  const router = useRouter();
  // The dashboard's code is fetched once the patient starts typing, so it is here when the login
  // answers; not on the page's first load, which stays small (tests/e2e/login-route.spec.ts).
  const preloaded = useRef(false);
  const preload = () => {
    if (preloaded.current) return;
    preloaded.current = true;
    preloadPatientCode(router, '/app', { login: true });
  };
  const [method, setMethod] = useState<LoginMethod>('password');
  const [hospNo, setHospNo] = useState('');
  const [secrets, setSecrets] = useState<Record<LoginMethod, string>>({ password: '', otp: '', 'access-key': '' });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const failureId = useId();
  const hospNoRef = useRef<HTMLInputElement>(null);
  const secretRef = useRef<HTMLInputElement>(null);
  /** A temporary password was right: the patient chooses their own before anything else (issue 48). */
  const [temporary, setTemporary] = useState<PasswordChangeRequired['session'] | undefined>();
  const temporaryHeadingId = useId();

  const secret = secrets[method];
  const setSecret = (value: string) => {
    setSecrets((s) => ({ ...s, [method]: value }));
    setErrors((e) => (e.secret ? { ...e, secret: undefined } : e));
  };

  function hospNoError(value: string): string | undefined {
    if (!value) return t`Enter your hospital number.`;
    if (value.length > hospNoSchema.maxLength || !HOSP_NO_PATTERN.test(value)) return t`Check your hospital number: it has only letters, digits and - / . _`;
    return undefined;
  }

  /** For "Send code": the hospital number alone must be right. */
  function requireHospNo(): string | undefined {
    const value = hospNo.trim();
    const error = hospNoError(value);
    setErrors((e) => ({ ...e, hospNo: error }));
    if (error) hospNoRef.current?.focus();
    return error ? undefined : value;
  }

  function secretError(): string | undefined {
    if (method === 'password') return secret ? undefined : t`Enter your password.`;
    if (method === 'access-key') return secret.trim() ? undefined : t`Enter your access key.`;
    return OTP_PATTERN.test(secret.replace(/\s/g, '')) ? undefined : t`Enter the 6-digit code: numbers only, for example 123456.`;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const number = hospNo.trim();
    const found = { hospNo: hospNoError(number), secret: secretError() };
    setErrors(found);
    setFailure(undefined);
    if (found.hospNo) return hospNoRef.current?.focus();
    if (found.secret) return secretRef.current?.focus();
    const input: LoginInput =
      method === 'password'
        ? { method, hospNo: number, password: secret }
        : method === 'otp'
          ? { method, hospNo: number, otp: secret.replace(/\s/g, '') }
          : { method, hospNo: number, accessKey: secret.trim() };
    setBusy(true);
    try {
      await runtime.session.login(input);
      runtime.notify({ type: 'success', text: method === 'password' ? t`You have successfully logged in.` : t`Login successful - Welcome to the app!` });
      await navigate({ to: '/app' });
    } catch (err) {
      if (isPasswordChangeRequired(err)) setTemporary(err.session);
      else setFailure(failureMessage(err, t`Something went wrong. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  /** The own password is set: the same session, no longer confined, logs the device in. */
  async function continueLogin(session: PasswordChangeRequired['session']) {
    await runtime.session.completeLogin(session);
    runtime.notify({ type: 'success', text: t`You have successfully logged in.` });
    await navigate({ to: '/app' });
  }

  /** Back to the login form: the confined session is ended on the server (it could only change the password). */
  function leaveTemporary(session: PasswordChangeRequired['session']) {
    inBackground(
      patientAuthApi(runtime.api)
        .logout(session.token)
        .catch(() => undefined),
      'Ending the temporary session failed',
    );
    setTemporary(undefined);
    setSecrets((s) => ({ ...s, password: '' }));
  }

  if (temporary) {
    return (
      <section className="card auth-temporary" aria-labelledby={temporaryHeadingId}>
        <h2 id={temporaryHeadingId}>
          <Trans>Choose your own password</Trans>
        </h2>
        <p className="muted">
          <Trans>You logged in with a temporary password from your hospital. Choose a password of your own to continue: only you will know it.</Trans>
        </p>
        <Suspense fallback={<p className="muted" aria-busy="true" />}>
          <ChangePasswordForm
            autoFocus
            hospNo={temporary.hospNo}
            temporary={{ token: temporary.token, password: secrets.password }}
            onDone={() => continueLogin(temporary)}
          />
        </Suspense>
        <button type="button" className="button button--secondary password-help-cancel" onClick={() => leaveTemporary(temporary)}>
          <Trans>Back to login</Trans>
        </button>
      </section>
    );
  }

  function changeMethod(next: LoginMethod) {
    if (next === method) return;
    setMethod(next);
    setErrors((e) => ({ hospNo: e.hospNo }));
    setFailure(undefined);
  }

  return (
    <>
      <LoginMethodSwitch method={method} onChange={changeMethod} />
      <form
        className="auth-form"
        onInput={preload}
        onSubmit={(e) => inBackground(submit(e), 'Logging in failed')}
        noValidate
        aria-describedby={failure ? failureId : undefined}
      >
        <TextField
          ref={hospNoRef}
          label={<Trans>Hospital number</Trans>}
          name="hospNo"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={hospNo}
          onValueChange={(v) => (setHospNo(v), setErrors((e) => (e.hospNo ? { ...e, hospNo: undefined } : e)))}
          error={errors.hospNo}
        />
        {method === 'password' && (
          <PasswordField
            ref={secretRef}
            label={<Trans>Password</Trans>}
            name="password"
            autoComplete="current-password"
            value={secret}
            onValueChange={setSecret}
            error={errors.secret}
          />
        )}
        {method === 'otp' && (
          <OtpFields code={secret} onCodeChange={setSecret} error={errors.secret} codeRef={secretRef} requireHospNo={requireHospNo} onFailure={setFailure} />
        )}
        {method === 'access-key' && (
          <TextField
            ref={secretRef}
            label={<Trans>Access key</Trans>}
            name="accessKey"
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            value={secret}
            onValueChange={setSecret}
            error={errors.secret}
            hint={<Trans>Type it as printed on the letter from your hospital; dashes and capitals do not matter.</Trans>}
          />
        )}
        {failure && (
          <p id={failureId} className="error-text auth-failure" role="alert">
            {failure}
          </p>
        )}
        <button className="button auth-submit" type="submit" disabled={busy}>
          <Trans>Log in</Trans>
        </button>
      </form>
    </>
  );
}
