// Modal dialogs on the native <dialog>: the browser traps focus, Escape closes it and focus returns
// to the control that opened it, with no code of ours to get wrong.
import { Trans } from '@lingui/react/macro';
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { toasts } from '../lib/ui/toast-store.ts';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** Escape, or the owner's own close button. */
  onClose: () => void;
  /**
   * 'alertdialog' for a message that needs the person's attention at once (ARIA: an alert that takes
   * focus). Focus goes to the first control inside either way (showModal).
   */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element that says what the dialog is about, read out with its title. */
  describedBy?: string;
  /** The control that takes focus when it opens (otherwise the browser's choice, the first one). */
  initialFocus?: RefObject<HTMLElement | null>;
}

export function Modal({ open, title, children, onClose, role, describedBy, initialFocus }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      initialFocus?.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open, initialFocus]);
  // A question being asked has the screen to itself: toasts wait, their time stopped (issue 50).
  useEffect(() => (open ? toasts.hold() : undefined), [open]);
  return (
    <dialog
      ref={ref}
      className="dialog"
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={open ? describedBy : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      {open && children}
    </dialog>
  );
}

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** The label of the confirming button, e.g. "Delete". */
  confirmLabel: ReactNode;
  /** Red confirming button for destructive actions. */
  danger?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A question with two answers; Cancel is first in the tab order, so Enter alone never deletes. */
export function ConfirmDialog({ open, title, children, confirmLabel, danger, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal open={open} title={title} onClose={onCancel}>
      {children}
      <div className="dialog-actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </button>
        <button type="button" className={danger ? 'button button--danger' : 'button'} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
