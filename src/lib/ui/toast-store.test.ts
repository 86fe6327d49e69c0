import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, MAX_TOASTS, MIN_TOAST_SHOWN_MS, TOAST_COLOURS, TOAST_EVENT, TOAST_Z_INDEX, type ToastStore } from './toast-store.ts';

let store: ToastStore;
beforeEach(() => {
  vi.useFakeTimers();
  store = createToastStore();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('toast store', () => {
  it('fills in the defaults: 4000 ms, dismissible, one occurrence', () => {
    store.toast({ type: 'success', text: 'Glucose reported successfully' });
    expect(store.getSnapshot()).toEqual([
      { id: expect.any(String), type: 'success', title: undefined, text: 'Glucose reported successfully', duration: 4000, dismissible: true, repeat: 1 },
    ]);
  });

  it('dismisses every toast of one type, and stops their clocks', () => {
    store.toast({ type: 'success', text: 'Glucose reported successfully' });
    store.toast({ type: 'error', text: 'Could not send' });
    store.toast({ type: 'success', text: 'Data synchronized successfully' });
    store.dismissType('success');
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Could not send']);
    vi.advanceTimersByTime(10_000);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('drops the toasts of a type held back until every hold is released', () => {
    const first = store.holdBack('success');
    const second = store.holdBack('success');
    expect(store.toast({ type: 'success', text: 'Data synchronized successfully' })).toBe('');
    store.toast({ type: 'error', text: 'Could not send' });
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Could not send']);
    first();
    first();
    store.toast({ type: 'success', text: 'Still held' });
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Could not send']);
    second();
    store.toast({ type: 'success', text: 'Shown again' });
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Could not send']);
    expect(store.waiting()).toBe(1);
  });

  it('gives errors 3000 ms unless told otherwise', () => {
    store.toast({ type: 'error', text: 'Something went wrong.' });
    const other = store.toast({ type: 'error', text: 'Other', duration: 6000 });
    expect(store.getSnapshot().map((t) => t.duration)).toEqual([3000]);
    vi.advanceTimersByTime(MIN_TOAST_SHOWN_MS);
    expect(store.getSnapshot().map((t) => [t.id, t.duration])).toEqual([[other, 6000]]);
  });

  it('expires a toast after its duration', () => {
    store.toast({ type: 'error', text: 'Three seconds' });
    vi.advanceTimersByTime(2999);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('shows one toast at a time: the one shown gives way after a moment, the next gets its full time', () => {
    store.toast({ type: 'success', text: 'Glucose reported successfully' });
    vi.advanceTimersByTime(500);
    store.toast({ type: 'info', text: 'Data synchronized successfully' });
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Glucose reported successfully']);
    expect(store.waiting()).toBe(1);
    vi.advanceTimersByTime(MIN_TOAST_SHOWN_MS - 501);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Glucose reported successfully']);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Data synchronized successfully']);
    expect(store.waiting()).toBe(0);
    vi.advanceTimersByTime(3999);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('gives the one shown its own time back when those waiting are dismissed', () => {
    store.toast({ type: 'info', text: 'Four seconds' });
    const other = store.toast({ type: 'info', text: 'Waiting' });
    vi.advanceTimersByTime(1000);
    store.dismiss(other);
    vi.advanceTimersByTime(2999);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Four seconds']);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('lets a toast that stays until dismissed give way, and shows it again after the others', () => {
    store.toast({ type: 'error', text: 'Session Expired. Please login again.', duration: 0 });
    store.toast({ type: 'info', text: 'Brief' });
    vi.advanceTimersByTime(MIN_TOAST_SHOWN_MS);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Brief']);
    vi.advanceTimersByTime(4000);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Session Expired. Please login again.']);
    vi.advanceTimersByTime(60 * 60_000);
    expect(store.getSnapshot()).toHaveLength(1);
  });

  it('does not take away a toast held open for the next one', () => {
    const id = store.toast({ type: 'info', text: 'Read me' });
    store.pause(id);
    store.toast({ type: 'info', text: 'Next' });
    vi.advanceTimersByTime(60_000);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Read me']);
    store.resume(id);
    vi.advanceTimersByTime(999);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Read me']);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Next']);
  });

  it('shows nothing while held: the one shown waits with its time stopped, and comes back after', () => {
    store.toast({ type: 'success', text: 'Saved' });
    vi.advanceTimersByTime(3000);
    const release = store.hold();
    const nested = store.hold();
    expect(store.getSnapshot()).toEqual([]);
    store.toast({ type: 'info', text: 'Later' });
    vi.advanceTimersByTime(60_000);
    expect(store.waiting()).toBe(2);
    release();
    release();
    expect(store.getSnapshot()).toEqual([]);
    nested();
    // Back for at least a moment before it gives way to the one waiting.
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Saved']);
    vi.advanceTimersByTime(999);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Saved']);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Later']);
  });

  it('lets go of a toast held open once it leaves the screen: it comes back on its own clock', () => {
    // The pointer rested on it, then a dialog hid it: its element went, and with it the pointerleave.
    const id = store.toast({ type: 'success', text: 'Lab test reported successfully' });
    store.pause(id);
    const release = store.hold();
    store.toast({ type: 'success', text: 'Notification timings saved successfully' });
    release();
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Lab test reported successfully']);
    vi.advanceTimersByTime(MIN_TOAST_SHOWN_MS);
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Notification timings saved successfully']);
    vi.advanceTimersByTime(4000);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('keeps a duration 0 toast until it is dismissed', () => {
    const id = store.toast({ type: 'warning', text: 'Sticky', duration: 0 });
    vi.advanceTimersByTime(60 * 60_000);
    expect(store.getSnapshot()).toHaveLength(1);
    store.dismiss(id);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('does not let a toast nobody can close stay forever', () => {
    store.toast({ type: 'info', text: 'Not closable', duration: 0, dismissible: false });
    expect(store.getSnapshot()[0]).toMatchObject({ duration: 4000, dismissible: false });
    vi.advanceTimersByTime(4000);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('counts an identical toast shown again instead of stacking it, and restarts its time', () => {
    const first = store.toast({ type: 'error', text: 'Something went wrong. Please try again.' });
    vi.advanceTimersByTime(2500);
    const second = store.toast({ type: 'error', text: 'Something went wrong. Please try again.' });
    expect(second).toBe(first);
    expect(store.getSnapshot()).toHaveLength(1);
    expect(store.getSnapshot()[0]?.repeat).toBe(2);
    vi.advanceTimersByTime(2500);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(500);
    expect(store.getSnapshot()).toEqual([]);
    // Once gone, the same notice starts a fresh toast.
    store.toast({ type: 'error', text: 'Something went wrong. Please try again.' });
    expect(store.getSnapshot()[0]?.repeat).toBe(1);
  });

  it('tells toasts apart by type, title and text, and compares descriptors by id', () => {
    store.toast({ type: 'error', text: 'Same' });
    store.toast({ type: 'warning', text: 'Same' });
    store.toast({ type: 'error', title: 'Heading', text: 'Same' });
    expect(store.waiting()).toBe(2);
    // Descriptors as msg`…` makes them (written by hand here to keep test text out of the catalog).
    store.toast({ type: 'success', text: { id: 'synced', message: 'Synced' } });
    store.toast({ type: 'success', text: { id: 'synced', message: 'Synced' }, repeat: 2 });
    expect(store.waiting()).toBe(3);
    store.dismissType('error');
    store.dismissType('warning');
    expect(store.getSnapshot()[0]?.repeat).toBe(3);
  });

  it('pauses the clock while the toast is held open', () => {
    const id = store.toast({ type: 'info', text: 'Read me' });
    vi.advanceTimersByTime(3000);
    store.pause(id);
    vi.advanceTimersByTime(60_000);
    expect(store.getSnapshot()).toHaveLength(1);
    store.resume(id);
    vi.advanceTimersByTime(999);
    expect(store.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it(`keeps at most ${MAX_TOASTS}, dropping the oldest waiting, not the one shown`, () => {
    for (let i = 1; i <= MAX_TOASTS + 2; i++) store.toast({ type: 'info', text: `n${i}`, duration: 0 });
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['n1']);
    expect(store.waiting()).toBe(MAX_TOASTS - 1);
    const shown: string[] = [];
    for (let i = 0; i < MAX_TOASTS; i++) {
      shown.push(...store.getSnapshot().map((t) => String(t.text)));
      vi.advanceTimersByTime(MIN_TOAST_SHOWN_MS);
    }
    expect(shown).toEqual(['n1', 'n4', 'n5', 'n6', 'n7']);
  });

  it('clear removes everything and their timers', () => {
    store.toast({ type: 'info', text: 'a' });
    store.toast({ type: 'info', text: 'b', duration: 0 });
    store.clear();
    expect(store.getSnapshot()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('accepts toasts dispatched as a window event by modules outside src/', () => {
    const target = new EventTarget();
    const unbind = store.bindGlobalEvents(target);
    target.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: { type: 'success', text: 'From sync' } }));
    target.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: { type: 'bogus', text: 'ignored' } }));
    target.dispatchEvent(new CustomEvent(TOAST_EVENT, { detail: null }));
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['From sync']);
    unbind();
  });

  it('exports the spec constants', () => {
    expect(TOAST_Z_INDEX).toBe(10000);
    expect(TOAST_COLOURS).toEqual({ success: '#4caf50', error: '#ff5252', warning: '#fb8c00', info: '#2196f3' });
  });
});
