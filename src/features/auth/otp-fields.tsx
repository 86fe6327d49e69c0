import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type RefObject } from 'react';
import { inBackground } from '../../../sync/background.ts';
import { patientAuthApi } from '../../../sync/auth-api.ts';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { failureMessage } from './auth-errors.ts';
import { TextField } from '../../components/text-field.tsx';
import { useOtpSent } from './use-otp-sent.ts';

export interface OtpFieldsProps {
  code: string;
  onCodeChange: (code: string) => void;
  error: string | undefined;
  codeRef: RefObject<HTMLInputElement | null>;
  /** The checked hospital number, or undefined after marking the field as wrong. */
  requireHospNo: () => string | undefined;
  /** Shows (or, with undefined, clears) the form's failure message. */
  onFailure: (message: string | undefined) => void;
}

/** "Send code" with its 60-second wait, then the field for the 6-digit code the admin passes on. */
export function OtpFields({ code, onCodeChange, error, codeRef, requireHospNo, onFailure }: OtpFieldsProps) {
  const { t } = useLingui();
  const runtime = useRuntime();
  const { sent, secondsLeft, markSent } = useOtpSent();
  const [sending, setSending] = useState(false);
  const countdownId = useId();

  async function send() {
    const hospNo = requireHospNo();
    if (!hospNo) return;
    onFailure(undefined);
    setSending(true);
    try {
      await patientAuthApi(runtime.api).sendOtp({ hospNo });
      markSent();
      // Said beside the code field (its hint, a live region), never as a toast over what explains it (issue 50).
      codeRef.current?.focus();
    } catch (err) {
      onFailure(failureMessage(err, t`Something went wrong. Please try again.`));
    } finally {
      setSending(false);
    }
  }

  return (
    <>
      <div className="otp-send">
        <button
          type="button"
          className="button button--secondary"
          disabled={sending || secondsLeft > 0}
          aria-describedby={secondsLeft > 0 ? countdownId : undefined}
          onClick={() => inBackground(send(), 'Sending the one-time code failed')}
        >
          <Trans>Send code</Trans>
        </button>
        {secondsLeft > 0 && (
          <p id={countdownId} className="otp-countdown">
            <Plural value={secondsLeft} one="You can ask for a new code in # second." other="You can ask for a new code in # seconds." />
          </p>
        )}
      </div>
      <div className="otp-code">
        <TextField
          ref={codeRef}
          label={<Trans>One-time code</Trans>}
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={12}
          value={code}
          onValueChange={onCodeChange}
          error={error}
          hint={
            // One live region, always there, so the change to "sent" is announced. The spec's words
            // speak of the admin's email: the sentence after them says what that means for a patient,
            // who would otherwise search their own inbox.
            <span role="status">
              {sent ? (
                <>
                  <span className="auth-notice">{t`Please check admin's email for the OTP.`}</span>{' '}
                  <Trans>The code went to your hospital's care team, not to your own phone or email: ask them for it (at the ward desk or by phone).</Trans>
                </>
              ) : (
                <Trans>Tap “Send code”: the code goes to your hospital's care team, who give it to you.</Trans>
              )}
            </span>
          }
        />
      </div>
    </>
  );
}
