import { Trans } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Icon } from '../../components/icon.tsx';

/** Loaded when first opened (precached for offline use like every chunk): the login page's script budget. */
export const ChangePasswordForm = lazy(() => import('./change-password-form.tsx'));

/**
 * "Forgot or change password?" on the login page: a section that unfolds in place (no modal, so it
 * scrolls like the rest of the page on a small phone). Its fields exist only while it is open.
 */
export function PasswordHelp() {
  const [open, setOpen] = useState(false);
  const regionId = useId();
  const headingId = useId();
  const regionRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    // Opening puts the cursor in the first field (the form does, once loaded); closing returns it to the button.
    if (!open && wasOpen.current) toggleRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  return (
    <section className="card password-help">
      <button
        ref={toggleRef}
        type="button"
        className="password-help-toggle"
        aria-expanded={open}
        aria-controls={open ? regionId : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <span>
          <Trans>Forgot or change password?</Trans>
        </span>
        <Icon icon="mdi:chevron-right" />
      </button>
      {open && (
        <div ref={regionRef} id={regionId} role="region" aria-labelledby={headingId}>
          <h2 id={headingId}>
            <Trans>Change your password</Trans>
          </h2>
          <p className="muted password-help-intro">
            <Trans>Forgot your password? Ask your hospital for a temporary password and use it here, or log in with a one-time code.</Trans>
          </p>
          <Suspense fallback={<p className="muted" aria-busy="true" />}>
            <ChangePasswordForm autoFocus onDone={() => setOpen(false)} />
          </Suspense>
          <button type="button" className="button button--secondary password-help-cancel" onClick={() => setOpen(false)}>
            <Trans>Cancel</Trans>
          </button>
        </div>
      )}
    </section>
  );
}
