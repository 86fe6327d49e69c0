// The toast stack (docs/requirements.md §2, §9): above the page (z-index 10000), below the loader. Errors are
// announced as alerts, everything else politely as status. Logical properties, so it mirrors in RTL.
import { Plural, useLingui } from '@lingui/react/macro';
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type PointerEvent, type RefObject } from 'react';
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
  // Held while the person reads it: the pointer moved onto it, or it has the focus. A toast that
  // comes up under a pointer at rest (where the last tap was, a dialog's button at the screen's
  // foot) is not being read, and held, it kept every later notice waiting for good: the pointer
  // holds it only by moving over it (the browser's own events for a pointer at rest carry no movement).
  const moved = (e: PointerEvent<HTMLDivElement>) => {
    if (Math.abs(e.movementX) + Math.abs(e.movementY) > 0) hold();
  };
  return (
    <div
      className={`toast toast--${toast.type}`}
      style={{ backgroundColor: TOAST_COLOURS[toast.type] }}
      role={toast.type === 'error' ? 'alert' : 'status'}
      aria-atomic="true"
      onPointerMove={moved}
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

/**
 * What a toast must never cover (issue 50): an alert on the page (a form's error, a warning), a
 * question being asked inline ("Did you mean 7.5 mmol/L?"), or anything marked `data-toast-avoid`.
 * Modal dialogs hold the toasts themselves (confirm-dialog.tsx).
 */
// eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS selector, not shown to anyone
const AVOID = '[role="alert"], [role="alertdialog"], .unit-question, [data-toast-avoid]';
/** Before a toast was measured: about one line of text with its padding. */
const TOAST_HEIGHT_GUESS = 72;

type Edge = 'end' | 'start';

/** The rectangles of what must stay visible (in the viewport, not the toasts' own). */
function obstacles(): DOMRect[] {
  return [...document.querySelectorAll(AVOID)]
    .filter((el) => !el.closest('.toaster'))
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 4 && r.height > 4 && r.bottom > 0 && r.top < window.innerHeight);
}

/**
 * Where the toaster stands at `edge`, `height` tall: from its own distances to the screen's edges
 * (CSS), never from where it stands now, so that each edge is judged the same whichever it is at.
 */
function bandAt(edge: Edge, toaster: HTMLElement | null, height: number): { top: number; bottom: number; left: number; right: number } {
  const r = toaster?.getBoundingClientRect();
  const left = r && r.width > 0 ? r.left : 0;
  const right = r && r.width > 0 ? r.right : window.innerWidth;
  const style = toaster ? getComputedStyle(toaster) : undefined;
  const px = (name: string) => Number.parseFloat(style?.getPropertyValue(name) ?? '') || 12;
  if (edge === 'start') {
    const top = px('--toaster-start');
    return { top, bottom: top + height, left, right };
  }
  const bottom = window.innerHeight - px('--toaster-end');
  return { top: bottom - height, bottom, left, right };
}

const overlaps = (a: { top: number; bottom: number; left: number; right: number }, b: DOMRect) =>
  a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right;

/**
 * Keeps the toast off what must stay visible: at the screen's foot as usual, at its head when that
 * covers an alert or a question, and held back (store.hold) while both would, until the page moves.
 */
function useClearPlace(showing: boolean, toaster: RefObject<HTMLDivElement | null>): Edge {
  const [edge, setEdge] = useState<Edge>('end');
  const [blocked, setBlocked] = useState(false);
  const height = useRef(TOAST_HEIGHT_GUESS);
  const release = useRef<(() => void) | undefined>(undefined);

  const place = () => {
    const el = toaster.current;
    if (el && el.getBoundingClientRect().height > 0) height.current = el.getBoundingClientRect().height;
    const avoid = obstacles();
    const free = (e: Edge) => !avoid.some((o) => overlaps(bandAt(e, el, height.current), o));
    const next: Edge | undefined = free('end') ? 'end' : free('start') ? 'start' : undefined;
    if (next) setEdge(next);
    setBlocked(next === undefined);
  };

  // Before the toast is painted: a toast that would cover something moves (or waits) before anyone sees it.
  useLayoutEffect(() => {
    if (showing) place();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- placed on each toast shown; the page's own changes are watched below
  }, [showing, edge]);

  // The page moves under a toast shown or held: placed again (once a frame at most).
  useEffect(() => {
    if (!showing && !blocked) return undefined;
    let frame = 0;
    const again = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        place();
      });
    };
    const watch = new MutationObserver(again);
    watch.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class', 'hidden', 'open', 'role'] });
    window.addEventListener('scroll', again, { passive: true, capture: true });
    window.addEventListener('resize', again);
    return () => {
      if (frame) cancelAnimationFrame(frame);
      watch.disconnect();
      window.removeEventListener('scroll', again, { capture: true });
      window.removeEventListener('resize', again);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- place reads refs and the DOM only
  }, [showing, blocked]);

  useEffect(() => {
    if (blocked && !release.current) release.current = toasts.hold();
    if (!blocked && release.current) {
      release.current();
      release.current = undefined;
    }
  }, [blocked]);
  useEffect(
    () => () => {
      release.current?.();
      release.current = undefined;
    },
    [],
  );
  return edge;
}

export function Toaster() {
  const list = useToasts();
  const ref = useRef<HTMLDivElement>(null);
  const edge = useClearPlace(list.length > 0, ref);
  // One toast at a time (toast-store.ts), its own live region; the toaster is only a positioned container.
  return (
    <div ref={ref} className={`toaster toaster--${edge}`} style={{ zIndex: TOAST_Z_INDEX }}>
      {list.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
