import { useLingui } from '@lingui/react/macro';
import { useRef, type KeyboardEvent } from 'react';

export type LoginMethod = 'password' | 'otp' | 'access-key';
export const LOGIN_METHODS: readonly LoginMethod[] = ['password', 'otp', 'access-key'];

/**
 * The switch between the three ways to log in, as an ARIA radio group: one tab stop; the arrow keys
 * (left and right mirrored in right-to-left text), Home and End move and choose. The options are
 * buttons named by their text, not labelled inputs, so the field "Password" stays the only thing
 * whose label is "Password" (people and tests find fields by their label).
 */
export function LoginMethodSwitch({ method, onChange }: { method: LoginMethod; onChange: (m: LoginMethod) => void }) {
  const { t } = useLingui();
  const groupRef = useRef<HTMLDivElement>(null);
  const names: Record<LoginMethod, string> = { password: t`Password`, otp: t`One-time code`, 'access-key': t`Access key` };

  function onKeyDown(e: KeyboardEvent) {
    const rtl = groupRef.current ? getComputedStyle(groupRef.current).direction === 'rtl' : false;
    const forward = e.key === 'ArrowDown' || e.key === (rtl ? 'ArrowLeft' : 'ArrowRight');
    const back = e.key === 'ArrowUp' || e.key === (rtl ? 'ArrowRight' : 'ArrowLeft');
    const i = LOGIN_METHODS.indexOf(method);
    const n = LOGIN_METHODS.length;
    const target = forward
      ? LOGIN_METHODS[(i + 1) % n]
      : back
        ? LOGIN_METHODS[(i - 1 + n) % n]
        : e.key === 'Home'
          ? LOGIN_METHODS[0]
          : e.key === 'End'
            ? LOGIN_METHODS[n - 1]
            : undefined;
    if (!target) return;
    e.preventDefault();
    onChange(target);
    groupRef.current?.querySelector<HTMLElement>(`[data-method="${target}"]`)?.focus();
  }

  return (
    <div ref={groupRef} role="radiogroup" aria-label={t`How do you want to log in?`} className="login-modes" onKeyDown={onKeyDown}>
      {LOGIN_METHODS.map((m) => (
        <button
          key={m}
          type="button"
          role="radio"
          data-method={m}
          className="login-mode"
          aria-checked={m === method}
          tabIndex={m === method ? 0 : -1}
          onClick={() => onChange(m)}
        >
          {names[m]}
        </button>
      ))}
    </div>
  );
}
