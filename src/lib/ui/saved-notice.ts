// The notice after an entry is saved. Every entry is saved on the device first and sent when the
// server can be reached; online that happens at once, and the spec's "… reported successfully" is
// true. Offline it is not yet: the notice then says where the entry is and that it will be sent,
// in blue, not green.
import { msg } from '@lingui/core/macro';
import type { ToastOptions } from './toast-store.ts';
import type { UiText } from './ui-text.ts';

export const MSG_SAVED_OFFLINE = msg`Saved on this device. It will be sent when you are back online.`;

/** The notice for a save whose online wording is `online`, made while the device is `offline` or not. */
export function savedNotice(online: UiText, offline: boolean): ToastOptions {
  return offline ? { type: 'info', text: MSG_SAVED_OFFLINE } : { type: 'success', text: online };
}

/** Shows the notice of a save from its online wording (the runtime's `notifySaved`). */
export type SavedNotifier = (online: string) => void;
