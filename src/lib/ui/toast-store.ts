// Toast notifications (docs/requirements.md §2, §4, §9): an external store for useSyncExternalStore, free of React so
// that any module can raise a notice. Modules that must not import src/ (sync/, the service worker
// bridge) can dispatch TOAST_EVENT on window with the options as `detail` instead.
import type { UiText } from './ui-text.ts';
import { textKey } from './ui-text.ts';

export type ToastType = 'success' | 'info' | 'warning' | 'error';

export const DEFAULT_TOAST_DURATION = 4000;
export const ERROR_TOAST_DURATION = 3000;
/** For notices that come from a push message (docs/requirements.md §9); callers pass it as `duration`. */
export const PUSH_TOAST_DURATION = 8000;
export const TOAST_Z_INDEX = 10000;
/** More than this and the oldest go: a burst of failures must not bury the screen. */
export const MAX_TOASTS = 5;
export const TOAST_EVENT = 'eddy:toast';

export const TOAST_COLOURS: Readonly<Record<ToastType, string>> = {
  success: '#4caf50',
  error: '#ff5252',
  warning: '#fb8c00',
  info: '#2196f3',
};

export interface ToastOptions {
  type: ToastType;
  title?: UiText | undefined;
  text: UiText;
  /** Milliseconds; default 4000 (3000 for errors). 0 keeps the toast until it is dismissed. */
  duration?: number | undefined;
  /** Whether it has a close button (default true). */
  dismissible?: boolean | undefined;
  /** How many occurrences this toast stands for (default 1). */
  repeat?: number | undefined;
  /** One button beside the text, e.g. "Undo"; using it also closes the toast. */
  action?: ToastAction | undefined;
}

export interface ToastAction {
  label: UiText;
  run: () => void;
}

export interface Toast {
  readonly id: string;
  readonly type: ToastType;
  readonly title: UiText | undefined;
  readonly text: UiText;
  /** 0 means it stays until dismissed. */
  readonly duration: number;
  readonly dismissible: boolean;
  /** Times this same notice was raised while shown; the UI shows a count above 1. */
  readonly repeat: number;
  readonly action: ToastAction | undefined;
}

export interface ToastStore {
  /** Shows a toast and returns its id ('' when its type is held back); an identical toast already shown is bumped instead. */
  toast(options: ToastOptions): string;
  dismiss(id: string): void;
  /** Dismisses every toast of `type` now shown. */
  dismissType(type: ToastType): void;
  /**
   * Until the returned function is called, toasts of `type` are not shown (dropped, not queued): a
   * dialog about a dangerous reading must not sit under a green notice (src/features/glucose/advice.tsx).
   * Holds nest; each release ends its own.
   */
  holdBack(type: ToastType): () => void;
  clear(): void;
  /** Stops a toast's clock while the user reads it (hover, focus); resume restarts it. */
  pause(id: string): void;
  resume(id: string): void;
  subscribe(listener: () => void): () => void;
  getSnapshot(): readonly Toast[];
  bindGlobalEvents(target: EventTarget): () => void;
}

const TYPES: readonly ToastType[] = ['success', 'info', 'warning', 'error'];

export function isToastOptions(value: unknown): value is ToastOptions {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const isText = (t: unknown) => typeof t === 'string' || (typeof t === 'object' && t !== null && typeof (t as { id?: unknown }).id === 'string');
  return TYPES.includes(v['type'] as ToastType) && isText(v['text']) && (v['title'] === undefined || isText(v['title']));
}

function resolveDuration(o: ToastOptions): number {
  const fallback = o.type === 'error' ? ERROR_TOAST_DURATION : DEFAULT_TOAST_DURATION;
  const d = o.duration;
  if (d === undefined || !Number.isFinite(d) || d < 0) return fallback;
  // A toast nobody can close must not stay forever: sticky needs a close button.
  if (d === 0) return o.dismissible === false ? fallback : 0;
  return d;
}

const keyOf = (o: { type: ToastType; title: UiText | undefined; text: UiText }) => `${o.type}|${textKey(o.title)}|${textKey(o.text)}`;

interface Clock {
  timer: ReturnType<typeof setTimeout> | undefined;
  remaining: number;
  startedAt: number;
  paused: boolean;
}

export function createToastStore(): ToastStore {
  let toasts: readonly Toast[] = [];
  const clocks = new Map<string, Clock>();
  const listeners = new Set<() => void>();
  let counter = 0;
  const held = new Map<ToastType, number>();

  const emit = () => {
    for (const l of [...listeners]) l();
  };

  function stopClock(id: string): void {
    const c = clocks.get(id);
    if (c?.timer !== undefined) clearTimeout(c.timer);
    clocks.delete(id);
  }

  function startClock(id: string, ms: number, paused = false): void {
    stopClock(id);
    if (ms === 0) return;
    const clock: Clock = { timer: undefined, remaining: ms, startedAt: Date.now(), paused };
    if (!paused) clock.timer = setTimeout(() => store.dismiss(id), ms);
    clocks.set(id, clock);
  }

  const store: ToastStore = {
    toast(options) {
      if ((held.get(options.type) ?? 0) > 0) return '';
      const incoming = {
        type: options.type,
        title: options.title,
        text: options.text,
        duration: resolveDuration(options),
        dismissible: options.dismissible !== false,
        repeat: Math.max(1, Math.floor(options.repeat ?? 1)),
        action: options.action,
      };
      const key = keyOf(incoming);
      const existing = toasts.find((t) => keyOf(t) === key);
      if (existing) {
        const bumped: Toast = { ...existing, ...incoming, id: existing.id, repeat: existing.repeat + incoming.repeat };
        toasts = toasts.map((t) => (t === existing ? bumped : t));
        // Seen again: give the reader the full time again, unless they are holding it open.
        startClock(existing.id, bumped.duration, clocks.get(existing.id)?.paused ?? false);
        emit();
        return existing.id;
      }
      const toast: Toast = { id: `toast-${++counter}`, ...incoming };
      const kept = [...toasts, toast];
      for (const dropped of kept.splice(0, Math.max(0, kept.length - MAX_TOASTS))) stopClock(dropped.id);
      toasts = kept;
      startClock(toast.id, toast.duration);
      emit();
      return toast.id;
    },
    dismiss(id) {
      stopClock(id);
      const next = toasts.filter((t) => t.id !== id);
      if (next.length === toasts.length) return;
      toasts = next;
      emit();
    },
    dismissType(type) {
      for (const t of toasts) if (t.type === type) stopClock(t.id);
      const next = toasts.filter((t) => t.type !== type);
      if (next.length === toasts.length) return;
      toasts = next;
      emit();
    },
    holdBack(type) {
      held.set(type, (held.get(type) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.set(type, (held.get(type) ?? 1) - 1);
      };
    },
    clear() {
      for (const id of [...clocks.keys()]) stopClock(id);
      if (toasts.length === 0) return;
      toasts = [];
      emit();
    },
    pause(id) {
      const c = clocks.get(id);
      if (!c || c.paused) return;
      if (c.timer !== undefined) clearTimeout(c.timer);
      c.timer = undefined;
      c.remaining = Math.max(0, c.remaining - (Date.now() - c.startedAt));
      c.paused = true;
    },
    resume(id) {
      const c = clocks.get(id);
      if (!c?.paused) return;
      // Leave at least a moment after the pointer or focus leaves, so the toast does not vanish at once.
      startClock(id, Math.max(c.remaining, 1000));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => toasts,
    bindGlobalEvents(target) {
      const onToast = (e: Event) => {
        const detail = (e as CustomEvent<unknown>).detail;
        if (isToastOptions(detail)) store.toast(detail);
      };
      target.addEventListener(TOAST_EVENT, onToast);
      return () => target.removeEventListener(TOAST_EVENT, onToast);
    },
  };
  return store;
}

/** The app's one toast stack. */
export const toasts = createToastStore();
if (typeof window !== 'undefined') toasts.bindGlobalEvents(window);

/** Shows a toast: `toast({ type: 'success', text: t\`Glucose reported successfully\` })`. */
export const toast = (options: ToastOptions): string => toasts.toast(options);
