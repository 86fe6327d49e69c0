import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, WEAK_PASSWORD_CODE, type PasswordProblem } from '../../../schemas/auth.ts';
import { ApiError } from '../../../sync/api-client.ts';
import { inBackground } from '../../../sync/background.ts';
import { patientAuthApi } from '../../../sync/auth-api.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';
import './auth.css';
import { failureMessage } from './auth-errors.ts';
import { TextField, PasswordField } from '../../components/text-field.tsx';

export interface ChangePasswordFormProps {
  /** The logged-in patient's number: then the form does not ask for it. */
  hospNo?: string;
  /** Called after the password was changed (e.g. to close the form). */
  onDone?: () => void | Promise<void>;
  /**
   * Right after a login with a temporary password (issue 48): the session's token, which may only
   * change the password, and the temporary password just typed (then the form does not ask for it).
   */
  temporary?: { token: string; password: string };
  /** Puts the cursor in the first field it shows once it is there (it is loaded when first opened). */
  autoFocus?: boolean;
}

type FieldName = 'hospNo' | 'current' | 'next' | 'repeat';
type Errors = { [F in FieldName]?: string | undefined };

/**
 * Changes a patient's password with the current or a temporary one (docs/requirements.md §7 /auth/updatePassword).
 * A failure keeps everything typed, so the patient only corrects what the message names.
 */
export function ChangePasswordForm({ hospNo: knownHospNo, onDone, temporary, autoFocus = false }: ChangePasswordFormProps) {
  const { t } = useLingui();
  const runtime = useRuntime();
  const [hospNo, setHospNo] = useState('');
  const [current, setCurrent] = useState(temporary?.password ?? '');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const failureId = useId();
  const hospNoRef = useRef<HTMLInputElement>(null);
  const currentRef = useRef<HTMLInputElement>(null);
  const nextRef = useRef<HTMLInputElement>(null);
  const repeatRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (autoFocus) formRef.current?.querySelector<HTMLInputElement>('input:not([type=hidden])')?.focus();
  }, [autoFocus]);
  /** The field to focus after a failed check (read in the submit handler, never while rendering). */
  const fieldRefs = { hospNo: hospNoRef, current: currentRef, next: nextRef, repeat: repeatRef } satisfies Record<FieldName, unknown>;

  function validate(): Errors {
    const found: Errors = {};
    if (knownHospNo === undefined && !hospNo.trim()) found.hospNo = t`Enter your hospital number.`;
    if (!current) found.current = t`Enter your current or temporary password.`;
    if (next.length < PASSWORD_MIN_LENGTH) found.next = t`The new password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
    else if (next.length > PASSWORD_MAX_LENGTH) found.next = t`The new password can have at most ${PASSWORD_MAX_LENGTH} characters.`;
    else if (repeat !== next) found.repeat = t`The two new passwords are not the same.`;
    return found;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    setFailure(undefined);
    const first = (['hospNo', 'current', 'next', 'repeat'] as const).find((f) => found[f]);
    if (first) {
      fieldRefs[first].current?.focus();
      return;
    }
    setBusy(true);
    try {
      await patientAuthApi(runtime.api).updatePassword({ hospNo: knownHospNo ?? hospNo.trim(), currPassword: current, password: next }, temporary?.token);
      runtime.notify({ type: 'success', text: t`You have successfully reset your password.` });
      setCurrent('');
      setNext('');
      setRepeat('');
      await onDone?.();
    } catch (err) {
      // A password the server refuses as easy to guess (server/lib/password-policy.ts): said at the field, in the page's language.
      const weak = err instanceof ApiError && err.code === WEAK_PASSWORD_CODE ? weakPasswordMessage(err.reason as PasswordProblem | undefined) : undefined;
      if (weak) {
        setErrors({ next: weak });
        nextRef.current?.focus();
        return;
      }
      setFailure(failureMessage(err, t`Something went wrong. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  function weakPasswordMessage(reason: PasswordProblem | undefined): string {
    const advice = t`Choose another one: a few unrelated words make a strong password.`;
    if (reason === 'repetitive') return `${t`This password is a repeated or sequential run of characters and easy to guess.`} ${advice}`;
    if (reason === 'context') return `${t`This password contains your hospital number, your name or the name of the app.`} ${advice}`;
    return `${t`This password is one of the most common ones and easy to guess.`} ${advice}`;
  }

  const clearError = (field: FieldName) => setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));

  return (
    <form
      ref={formRef}
      className="auth-form"
      onSubmit={(e) => inBackground(submit(e), 'Changing the password failed')}
      noValidate
      aria-describedby={failure ? failureId : undefined}
    >
      {knownHospNo === undefined && (
        <TextField
          ref={hospNoRef}
          label={<Trans>Hospital number</Trans>}
          name="hospNo"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={hospNo}
          onValueChange={(v) => (setHospNo(v), clearError('hospNo'))}
          error={errors.hospNo}
        />
      )}
      {/* Lets password managers file the new password under the right account. */}
      {knownHospNo !== undefined && <input type="hidden" name="username" autoComplete="username" value={knownHospNo} />}
      {temporary === undefined && (
        <PasswordField
          ref={currentRef}
          label={<Trans>Current or temporary password</Trans>}
          name="currPassword"
          autoComplete="current-password"
          value={current}
          onValueChange={(v) => (setCurrent(v), clearError('current'))}
          error={errors.current}
        />
      )}
      <PasswordField
        ref={nextRef}
        label={<Trans>New password</Trans>}
        name="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN_LENGTH}
        value={next}
        onValueChange={(v) => (setNext(v), clearError('next'))}
        hint={<Trans>At least {PASSWORD_MIN_LENGTH} characters.</Trans>}
        error={errors.next}
      />
      <PasswordField
        ref={repeatRef}
        label={<Trans>Repeat new password</Trans>}
        name="repeatPassword"
        autoComplete="new-password"
        value={repeat}
        onValueChange={(v) => (setRepeat(v), clearError('repeat'))}
        error={errors.repeat}
      />
      {failure && (
        <p id={failureId} className="error-text auth-failure" role="alert">
          {failure}
        </p>
      )}
      <button className="button auth-submit" type="submit" disabled={busy}>
        <Trans>Change password</Trans>
      </button>
    </form>
  );
}

/** For React.lazy: the form is loaded when first opened, not with the login page (its script budget). */
export default ChangePasswordForm;
