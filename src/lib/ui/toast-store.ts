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
/** Shown and waiting together; more than this and the oldest waiting go: a burst of failures must not bury the screen. */
export const MAX_TOASTS = 5;
/**
 * One toast is shown at a time (issue 50: three stacked toasts covered a third of a phone's screen).
 * While others wait, the one shown stays at least this long, then gives way; one held open (hover,
 * focus) stays until let go.
 */
export const MIN_TOAST_SHOWN_MS = 1500;
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
  /**
   * Shows a toast, or queues it behind the one shown, and returns its id ('' when its type is held
   * back); an identical toast already shown or waiting is bumped instead.
   */
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
  /**
   * Until the returned function is called, no toast is shown: the one shown waits, its time stopped,
   * and new ones wait behind it (a question being asked, or a toast that would cover an alert).
   * Holds nest; each release ends its own.
   */
  hold(): () => void;
  clear(): void;
  /** Stops a toast's clock while the user reads it (hover, focus); resume restarts it. */
  pause(id: string): void;
  resume(id: string): void;
  subscribe(listener: () => void): () => void;
  /** The toast shown now, as a list of at most one. */
  getSnapshot(): readonly Toast[];
  /** How many wait behind the one shown. */
  waiting(): number;
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
  /** Its time left when its clock last started (all of it before it is first shown; 0: until dismissed). */
  remaining: number;
  startedAt: number;
  /** While others wait, it gives way no earlier than this (MIN_TOAST_SHOWN_MS after it was first shown). */
  notBefore: number | undefined;
  /** Whether the running timer is its turn ending for another, rather than its own time. */
  givingWay: boolean;
  paused: boolean;
}

export function createToastStore(): ToastStore {
  /** The one shown first, then those waiting, in order. */
  let queue: Toast[] = [];
  let snapshot: readonly Toast[] = [];
  const clocks = new Map<string, Clock>();
  const listeners = new Set<() => void>();
  let counter = 0;
  const heldTypes = new Map<ToastType, number>();
  let holds = 0;
  /** Whether queue[0] is on screen (false while held). */
  let showing = false;

  const emit = () => {
    const next = showing && queue[0] ? [queue[0]] : [];
    if (next.length === snapshot.length && next[0] === snapshot[0]) return;
    snapshot = next;
    for (const l of [...listeners]) l();
  };

  function stopTimer(c: Clock | undefined): void {
    if (c?.timer !== undefined) clearTimeout(c.timer);
    if (c) c.timer = undefined;
  }

  /** Its own time left now. */
  const left = (c: Clock) => (c.timer === undefined ? c.remaining : Math.max(0, c.remaining - (Date.now() - c.startedAt)));

  /** Runs the shown toast's own clock for `ms` (a toast that stays until dismissed has none). */
  function runOwn(t: Toast, c: Clock, ms: number): void {
    stopTimer(c);
    c.givingWay = false;
    c.remaining = ms;
    c.startedAt = Date.now();
    if (ms > 0 && t.duration !== 0 && !c.paused) c.timer = setTimeout(() => store.dismiss(t.id), ms);
  }

  /** Shows the head of the queue when nothing holds it, and lets it give way to those waiting. */
  function settle(): void {
    const head = queue[0];
    const c = head ? clocks.get(head.id) : undefined;
    if (!head || !c || holds > 0) {
      if (c && showing) {
        // Held: its time stops where it is.
        c.remaining = left(c);
        stopTimer(c);
        c.givingWay = false;
      }
      // Off the screen nobody reads it: a pointer or focus that held it open holds it no more. Its
      // element is gone, and with it the events that would have let it go (the browser sends no
      // pointerleave or blur for a removed element): kept, it came back held for good, and every
      // later notice waited behind it (a fault run: a save's notice never showed).
      if (c) c.paused = false;
      showing = false;
      emit();
      return;
    }
    if (!showing) {
      showing = true;
      // Each time it appears, it is seen for a moment before it gives way.
      c.notBefore = Date.now() + MIN_TOAST_SHOWN_MS;
      runOwn(head, c, c.remaining);
    }
    if (queue.length > 1 && !c.paused && !c.givingWay) {
      // Others wait: this one gives way once it has been seen for a moment.
      const giveWay = Math.max(0, (c.notBefore ?? 0) - Date.now());
      if (head.duration === 0 || left(c) > giveWay) {
        // Its own time goes on meanwhile, in case those waiting go first.
        c.remaining = left(c);
        c.startedAt = Date.now();
        stopTimer(c);
        c.givingWay = true;
        c.timer = setTimeout(() => endTurn(head.id), giveWay);
      }
    } else if (queue.length === 1 && c.givingWay) {
      // Those waiting went: its own time again, what is left of it.
      runOwn(head, c, left(c));
    }
    emit();
  }

  /** The shown toast's turn ends: gone, or, one that stays until dismissed, to the back of the queue. */
  function endTurn(id: string): void {
    const head = queue[0];
    const c = clocks.get(id);
    if (head?.id !== id || !c) return;
    c.timer = undefined;
    c.givingWay = false;
    if (head.duration !== 0) {
      store.dismiss(id);
      return;
    }
    queue = [...queue.slice(1), head];
    showing = false;
    settle();
  }

  function remove(ids: ReadonlySet<string>): void {
    if (!queue.some((t) => ids.has(t.id))) return;
    if (queue[0] !== undefined && ids.has(queue[0].id)) showing = false;
    for (const id of ids) {
      stopTimer(clocks.get(id));
      clocks.delete(id);
    }
    queue = queue.filter((t) => !ids.has(t.id));
    settle();
  }

  const store: ToastStore = {
    toast(options) {
      if ((heldTypes.get(options.type) ?? 0) > 0) return '';
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
      const existing = queue.find((t) => keyOf(t) === key);
      if (existing) {
        const bumped: Toast = { ...existing, ...incoming, id: existing.id, repeat: existing.repeat + incoming.repeat };
        queue = queue.map((t) => (t === existing ? bumped : t));
        const c = clocks.get(existing.id);
        // Seen again: the full time again, unless it is held open or its turn is ending for another.
        if (c && !c.paused && !c.givingWay) {
          if (queue[0] === bumped && showing) runOwn(bumped, c, bumped.duration);
          else c.remaining = bumped.duration;
        }
        settle();
        return existing.id;
      }
      const toast: Toast = { id: `toast-${++counter}`, ...incoming };
      queue = [...queue, toast];
      clocks.set(toast.id, { timer: undefined, remaining: toast.duration, startedAt: Date.now(), notBefore: undefined, givingWay: false, paused: false });
      // Too many: the oldest waiting go (not the one being read).
      const over = queue.length - MAX_TOASTS;
      if (over > 0) {
        const dropped = queue.slice(1, 1 + over);
        for (const d of dropped) {
          stopTimer(clocks.get(d.id));
          clocks.delete(d.id);
        }
        queue = [queue[0] as Toast, ...queue.slice(1 + over)];
      }
      settle();
      return toast.id;
    },
    dismiss(id) {
      remove(new Set([id]));
    },
    dismissType(type) {
      remove(new Set(queue.filter((t) => t.type === type).map((t) => t.id)));
    },
    holdBack(type) {
      heldTypes.set(type, (heldTypes.get(type) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        heldTypes.set(type, (heldTypes.get(type) ?? 1) - 1);
      };
    },
    hold() {
      holds += 1;
      settle();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        settle();
      };
    },
    clear() {
      remove(new Set(queue.map((t) => t.id)));
    },
    pause(id) {
      const c = clocks.get(id);
      if (!c || c.paused) return;
      c.remaining = left(c);
      stopTimer(c);
      c.givingWay = false;
      c.paused = true;
    },
    resume(id) {
      const c = clocks.get(id);
      const head = queue[0];
      if (!c?.paused) return;
      c.paused = false;
      if (head?.id !== id || !showing) return;
      // Leave at least a moment after the pointer or focus leaves, so the toast does not vanish at once.
      c.notBefore = Date.now() + 1000;
      runOwn(head, c, Math.max(c.remaining, 1000));
      settle();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    waiting: () => Math.max(0, queue.length - (showing ? 1 : 0)),
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
