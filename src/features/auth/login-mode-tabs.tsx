import { useLingui } from '@lingui/react/macro';
import { useRef, type KeyboardEvent } from 'react';

export type LoginMethod = 'password' | 'otp' | 'access-key';
export const LOGIN_METHODS: readonly LoginMethod[] = ['password', 'otp', 'access-key'];

export const loginTabId = (prefix: string, method: LoginMethod) => `${prefix}-tab-${method}`;

/**
 * The switch between the three ways to log in, as ARIA tabs: one tab stop, arrow keys (mirrored in
 * right-to-left text), Home and End move and select. Tabs are buttons, not labelled inputs, so the
 * field "Password" stays the only thing labelled "Password".
 */
export function LoginModeTabs({ method, onChange, idPrefix, panelId }: { method: LoginMethod; onChange: (m: LoginMethod) => void; idPrefix: string; panelId: string }) {
  const { t } = useLingui();
  const listRef = useRef<HTMLDivElement>(null);
  const names: Record<LoginMethod, string> = { password: t`Password`, otp: t`One-time code`, 'access-key': t`Access key` };

  function select(next: LoginMethod) {
    onChange(next);
    document.getElementById(loginTabId(idPrefix, next))?.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    const rtl = listRef.current ? getComputedStyle(listRef.current).direction === 'rtl' : false;
    const i = LOGIN_METHODS.indexOf(method);
    const step = e.key === 'ArrowRight' ? (rtl ? -1 : 1) : e.key === 'ArrowLeft' ? (rtl ? 1 : -1) : 0;
    const target = step !== 0 ? LOGIN_METHODS[(i + step + LOGIN_METHODS.length) % LOGIN_METHODS.length] : e.key === 'Home' ? LOGIN_METHODS[0] : e.key === 'End' ? LOGIN_METHODS.at(-1) : undefined;
    if (!target) return;
    e.preventDefault();
    select(target);
  }

  return (
    <div ref={listRef} role="tablist" aria-label={t`How do you want to log in?`} className="login-modes" onKeyDown={onKeyDown}>
      {LOGIN_METHODS.map((m) => (
        <button
          key={m}
          id={loginTabId(idPrefix, m)}
          type="button"
          role="tab"
          className="login-mode"
          aria-selected={m === method}
          aria-controls={m === method ? panelId : undefined}
          tabIndex={m === method ? 0 : -1}
          onClick={() => select(m)}
        >
          {names[m]}
        </button>
      ))}
    </div>
  );
}
