import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../../../sync/api-client.ts';
import { inBackground } from '../../../sync/background.ts';
import type { SecondFactorInput } from '../../../sync/staff-session.ts';
import { MFA_INVALID_CODE, MFA_REQUIRED_CODE, MFA_SETUP_REQUIRED_CODE, TOTP_CODE_PATTERN } from '../../../schemas/auth.ts';
import { useStaffRuntime } from '../../lib/runtime-context.tsx';
import { toast } from '../../lib/ui/toast-store.ts';
import { staffFailure } from './staff-errors.ts';
import { TextField } from '../../components/text-field.tsx';
import { RecoveryCodes, SetupAuthenticator, type AuthenticatorSetup } from '../../components/staff-second-factor.tsx';
import { ensureFullCatalog } from '../../lib/i18n.ts';
import './staff-auth.css';

/**
 * The step of an admin's login: the password; the authenticator's code (or a recovery code) where
 * the admin has one; setting the authenticator up where their hospital asks for one or they chose
 * to; the recovery codes, once, after a setup (issue 48).
 */
type Step =
  | { kind: 'password' }
  | { kind: 'code'; recovery: boolean }
  | { kind: 'setup'; setup: AuthenticatorSetup; required: boolean }
  | { kind: 'codes'; codes: string[] };

const TOTP_CODE = new RegExp(TOTP_CODE_PATTERN);

/** Admin login (docs/requirements.md §4): e-mail and password, then the second factor; a failure keeps every field. */
export function AdminLoginForm() {
  const { t } = useLingui();
  const staffRuntime = useStaffRuntime();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [errors, setErrors] = useState<{ email?: string | undefined; password?: string | undefined; code?: string | undefined }>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const failureId = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const address = email.trim();

  /** The e-mail and password, checked before anything is sent; false (and the field focused) when one is missing. */
  function credentialsGiven(): boolean {
    const found = { email: address ? undefined : t`Enter your e-mail address.`, password: password ? undefined : t`Enter your password.` };
    setErrors(found);
    setFailure(undefined);
    if (found.email) emailRef.current?.focus();
    else if (found.password) passwordRef.current?.focus();
    return !found.email && !found.password;
  }

  const codeProblem = (recovery: boolean) =>
    recovery
      ? t`That recovery code is not right, or was used already.`
      : t`That code is not right, or was used already. Enter the code your authenticator app shows now.`;

  async function finish(second: SecondFactorInput) {
    const login = await staffRuntime.session.loginAdmin(address, password, second);
    if (login.recoveryCodes) {
      await ensureFullCatalog();
      setStep({ kind: 'codes', codes: login.recoveryCodes });
      return;
    }
    toast({ type: 'success', text: t`You have successfully logged in.` });
    const left = login.recoveryCodesLeft;
    if (left !== undefined) toast({ type: left <= 3 ? 'warning' : 'info', text: t`You signed in with a recovery code. ${left} recovery codes are left.` });
    await navigate({ to: '/admin/hospital-select' });
  }

  async function startSetup(required: boolean) {
    const setup = await staffRuntime.session.mfaSetup(address, password);
    // The setup's words are in the app's full catalog, not the login pages' (their size budget).
    await ensureFullCatalog();
    setCode('');
    setStep({ kind: 'setup', setup, required });
  }

  async function attempt(run: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    try {
      await run();
    } catch (err) {
      const server = err instanceof ApiError ? err.code : undefined;
      if (server === MFA_REQUIRED_CODE) {
        setCode('');
        setStep({ kind: 'code', recovery: false });
      } else if (server === MFA_SETUP_REQUIRED_CODE) {
        await startSetup(true).catch((e: unknown) => setFailure(staffFailure(e, t`An unexpected error occurred`)));
      } else if (server === MFA_INVALID_CODE) {
        setErrors({ code: codeProblem(step.kind === 'code' && step.recovery) });
        codeRef.current?.focus();
      } else if (err instanceof ApiError && err.status === 409) {
        setFailure(
          t`Two-step sign-in is already set up for this account. Log in with your authenticator app; to set it up again, ask the server’s operator to reset it.`,
        );
      } else {
        const text = staffFailure(err, t`An unexpected error occurred`);
        setFailure(text);
        toast({ type: 'error', text });
      }
    } finally {
      setBusy(false);
    }
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (step.kind === 'codes') return;
    if (step.kind === 'password') {
      if (credentialsGiven())
        inBackground(
          attempt(() => finish({})),
          'Staff login failed',
        );
      return;
    }
    const typed = code.replace(/\s+/g, '');
    const recovery = step.kind === 'code' && step.recovery;
    const problem = recovery
      ? typed
        ? undefined
        : t`Enter one of your recovery codes.`
      : TOTP_CODE.test(typed)
        ? undefined
        : t`Enter the 6 digits your authenticator app shows.`;
    setErrors({ code: problem });
    setFailure(undefined);
    if (problem) return codeRef.current?.focus();
    inBackground(
      attempt(() => finish(recovery ? { recoveryCode: typed } : { code: typed })),
      'Staff login failed',
    );
  }

  function back() {
    setStep({ kind: 'password' });
    setCode('');
    setErrors({});
    setFailure(undefined);
  }

  if (step.kind === 'codes')
    return <RecoveryCodes codes={step.codes} onDone={() => inBackground(navigate({ to: '/admin/hospital-select' }), 'Opening the staff area failed')} />;

  const codeField = (label: string, hint?: string) => (
    <TextField
      ref={codeRef}
      label={label}
      name="code"
      inputMode={step.kind === 'code' && step.recovery ? 'text' : 'numeric'}
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      autoFocus
      value={code}
      onValueChange={(v) => (setCode(v), setErrors((x) => ({ ...x, code: undefined })))}
      error={errors.code}
      hint={hint}
    />
  );

  return (
    <form name="admin-login" className="staff-form" onSubmit={submit} noValidate aria-describedby={failure ? failureId : undefined}>
      {step.kind === 'password' ? (
        <>
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
        </>
      ) : (
        <p className="staff-second-who">
          <Trans>
            Logging in as <bdi dir="ltr">{address}</bdi>.
          </Trans>{' '}
          <button type="button" className="link-button" onClick={back}>
            <Trans>Change account</Trans>
          </button>
        </p>
      )}
      {step.kind === 'code' && (
        <>
          <h2 className="staff-second-title">
            <Trans>Second step</Trans>
          </h2>
          {step.recovery
            ? codeField(t`Recovery code`, t`Each recovery code signs you in once. Use one when you do not have your phone.`)
            : codeField(t`Code from your authenticator app`, t`Open the authenticator app on your phone and enter the 6-digit code it shows for Eddy.`)}
          <button
            type="button"
            className="link-button staff-second-switch"
            onClick={() => (setStep({ kind: 'code', recovery: !step.recovery }), setCode(''), setErrors({}))}
          >
            {step.recovery ? <Trans>Use the authenticator app instead</Trans> : <Trans>Use a recovery code instead</Trans>}
          </button>
        </>
      )}
      {step.kind === 'setup' && (
        <SetupAuthenticator setup={step.setup} required={step.required}>
          {codeField(t`Code from your authenticator app`)}
        </SetupAuthenticator>
      )}
      {failure && (
        <p id={failureId} className="error-text staff-failure" role="alert">
          {failure}
        </p>
      )}
      <button className="button staff-submit" type="submit" disabled={busy}>
        {step.kind === 'setup' ? <Trans>Confirm and log in</Trans> : <Trans>Log in</Trans>}
      </button>
      {step.kind === 'password' && (
        <button
          type="button"
          className="link-button staff-second-switch"
          disabled={busy}
          onClick={() =>
            credentialsGiven() &&
            inBackground(
              attempt(() => startSetup(false)),
              'Starting the authenticator setup failed',
            )
          }
        >
          <Trans>Set up two-step sign-in with an authenticator app</Trans>
        </button>
      )}
    </form>
  );
}
