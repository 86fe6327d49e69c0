// The toast stack (docs/requirements.md §2, §9): above the page (z-index 10000), below the loader. Errors are
// announced as alerts, everything else politely as status. Logical properties, so it mirrors in RTL.
import { Plural, useLingui } from '@lingui/react/macro';
import { useSyncExternalStore } from 'react';
import type { BundledIconName } from '../lib/ui/icons/bundled-icons.ts';
import { TOAST_COLOURS, TOAST_Z_INDEX, toasts, type Toast, type ToastType } from '../lib/ui/toast-store.ts';
import { resolveText } from '../lib/ui/ui-text.ts';
import { Icon } from './icon.tsx';

const ICONS: Record<ToastType, BundledIconName> = {
  success: 'mdi:check-circle',
  info: 'mdi:information',
  warning: 'mdi:alert',
  error: 'mdi:alert-circle',
};

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot);
}

function ToastItem({ toast }: { toast: Toast }) {
  const { i18n, t } = useLingui();
  const title = toast.title === undefined ? undefined : resolveText(i18n, toast.title);
  const text = resolveText(i18n, toast.text);
  const hold = () => toasts.pause(toast.id);
  const release = () => toasts.resume(toast.id);
  return (
    <div
      className={`toast toast--${toast.type}`}
      style={{ backgroundColor: TOAST_COLOURS[toast.type] }}
      role={toast.type === 'error' ? 'alert' : 'status'}
      aria-atomic="true"
      onPointerEnter={hold}
      onPointerLeave={release}
      onFocus={hold}
      onBlur={release}
    >
      <Icon icon={ICONS[toast.type]} className="toast-icon" />
      <div className="toast-body">
        {title && <p className="toast-title">{title}</p>}
        <p className="toast-text">{text}</p>
      </div>
      {toast.action && (
        <button
          type="button"
          className="toast-action"
          onClick={() => {
            toast.action?.run();
            toasts.dismiss(toast.id);
          }}
        >
          {resolveText(i18n, toast.action.label)}
        </button>
      )}
      {toast.repeat > 1 && (
        <span className="toast-repeat">
          <span aria-hidden>×{i18n.number(toast.repeat)}</span>
          <span className="visually-hidden">
            <Plural value={toast.repeat} one="Shown # time" other="Shown # times" />
          </span>
        </span>
      )}
      {toast.dismissible && (
        <button type="button" className="toast-close" aria-label={t`Close notification`} onClick={() => toasts.dismiss(toast.id)}>
          <Icon icon="mdi:close" />
        </button>
      )}
    </div>
  );
}

export function Toaster() {
  const list = useToasts();
  // Each toast is its own live region; the stack is only a positioned container.
  return (
    <div className="toaster" style={{ zIndex: TOAST_Z_INDEX }}>
      {list.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
