// Text handed to the shell's stores (loader, toasts). Code outside React (sync, the 401 handler) has no
// `t` of its own, so it may pass a message descriptor (`msg\`…\``) that is translated when it is shown,
// in whatever locale is active then; code that already translated passes a plain string.
import type { I18n, MessageDescriptor } from '@lingui/core';

export type UiText = string | MessageDescriptor;

export function resolveText(i18n: I18n, text: UiText): string {
  return typeof text === 'string' ? text : i18n._(text);
}

/** A stable key for comparing texts: the same descriptor with the same values gives the same key. */
export function textKey(text: UiText | undefined): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return `s:${text}`;
  return `d:${text.id}:${JSON.stringify(text.values ?? {})}`;
}
