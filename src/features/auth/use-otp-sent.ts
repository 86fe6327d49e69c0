import { useCallback, useEffect, useState } from 'react';

/** The OTP-sent flag clears 60 s after a request (docs/requirements.md §4, §9); the server refuses earlier resends too. */
export const OTP_RESEND_MS = 60_000;

// Kept in the module, not in the component: the flag outlives switching login modes or leaving the
// page, but a reload starts without it (the server still answers an early resend with "Please wait").
let sentAt: number | undefined;

export interface OtpSent {
  /** A code was requested in this page's lifetime. */
  sent: boolean;
  /** Seconds until another code may be requested; 0 when it may. */
  secondsLeft: number;
  markSent: () => void;
}

export function useOtpSent(): OtpSent {
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = sentAt === undefined ? 0 : Math.max(0, Math.ceil((sentAt + OTP_RESEND_MS - now) / 1000));
  const counting = secondsLeft > 0;
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [counting]);
  const markSent = useCallback(() => {
    sentAt = Date.now();
    setNow(sentAt);
  }, []);
  return { sent: sentAt !== undefined, secondsLeft, markSent };
}
