import { describe, expect, it, vi } from 'vitest';
import { clampProgress, createLoaderStore, HIDDEN_LOADER, LOADER_CANCEL_EVENT, LOADER_Z_INDEX, withLoader, loader } from './loader-store.ts';

describe('loader store', () => {
  it('starts hidden with the spec defaults', () => {
    const s = createLoaderStore().getSnapshot();
    expect(s).toBe(HIDDEN_LOADER);
    expect(s.isVisible).toBe(false);
    expect(s.zIndex).toBe(99999);
    expect(LOADER_Z_INDEX).toBe(99999);
    expect(typeof s.loadingText === 'string' ? s.loadingText : s.loadingText.message).toBe('Loading...');
    expect(typeof s.subText === 'string' ? s.subText : s.subText.message).toBe('Please wait while we process your request');
  });

  it('stays visible while at least one request is active', () => {
    const store = createLoaderStore();
    const a = store.show();
    const b = store.show({ loadingText: 'Saving' });
    expect(store.getSnapshot().isVisible).toBe(true);
    expect(store.getSnapshot().loadingText).toBe('Saving');
    store.hide(b);
    expect(store.getSnapshot().isVisible).toBe(true);
    // The remaining request's own texts show again.
    expect(store.getSnapshot().loadingText).not.toBe('Saving');
    store.hide(b); // hiding twice does not steal another request's count
    expect(store.getSnapshot().isVisible).toBe(true);
    store.hide('loader-unknown');
    expect(store.getSnapshot().isVisible).toBe(true);
    store.hide(a);
    expect(store.getSnapshot()).toBe(HIDDEN_LOADER);
  });

  it('notifies subscribers and keeps the snapshot stable between changes', () => {
    const store = createLoaderStore();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const id = store.show();
    const snap = store.getSnapshot();
    expect(store.getSnapshot()).toBe(snap);
    expect(listener).toHaveBeenCalledTimes(1);
    store.hide(id);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    store.show();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('clamps progress to 0–100 on show and update', () => {
    expect(clampProgress(-5)).toBe(0);
    expect(clampProgress(150)).toBe(100);
    expect(clampProgress(42.5)).toBe(42.5);
    expect(clampProgress(Number.NaN)).toBe(0);
    expect(clampProgress(Infinity)).toBe(100);
    const store = createLoaderStore();
    const id = store.show({ progress: 250 });
    expect(store.getSnapshot()).toMatchObject({ showProgress: true, progress: 100 });
    store.update(id, { progress: -1 });
    expect(store.getSnapshot().progress).toBe(0);
    store.update(id, { progress: 30 });
    expect(store.getSnapshot().progress).toBe(30);
    store.update('loader-gone', { progress: 80 });
    expect(store.getSnapshot().progress).toBe(30);
  });

  it('shows no progress bar unless asked', () => {
    const store = createLoaderStore();
    store.show();
    expect(store.getSnapshot().showProgress).toBe(false);
    store.show({ showProgress: true });
    expect(store.getSnapshot()).toMatchObject({ showProgress: true, progress: 0 });
  });

  it('locks scroll if any request wants it, and by default', () => {
    const store = createLoaderStore();
    store.show({ lockScroll: false });
    expect(store.getSnapshot().lockScroll).toBe(false);
    store.show();
    expect(store.getSnapshot().lockScroll).toBe(true);
  });

  it.each([['error'], ['unhandledrejection'], [LOADER_CANCEL_EVENT]])('hides every request on the %s event', (type) => {
    const store = createLoaderStore();
    const target = new EventTarget();
    const unbind = store.bindGlobalEvents(target);
    store.show();
    store.show({ canCancel: false });
    target.dispatchEvent(new Event(type));
    expect(store.getSnapshot().isVisible).toBe(false);
    unbind();
    store.show();
    target.dispatchEvent(new Event(type));
    expect(store.getSnapshot().isVisible).toBe(true);
  });

  it('runs onCancel for the cancel event but not for a global error', () => {
    const store = createLoaderStore();
    const target = new EventTarget();
    store.bindGlobalEvents(target);
    const onCancel = vi.fn();
    store.show({ onCancel });
    target.dispatchEvent(new Event('error'));
    expect(onCancel).not.toHaveBeenCalled();
    store.show({ onCancel });
    target.dispatchEvent(new CustomEvent(LOADER_CANCEL_EVENT));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('lets a user cancel only when every active request allows it', () => {
    const store = createLoaderStore();
    const onCancel = vi.fn();
    expect(store.cancel()).toBe(false);
    const locked = store.show();
    expect(store.getSnapshot().canCancel).toBe(false);
    expect(store.cancel()).toBe(false);
    expect(store.getSnapshot().isVisible).toBe(true);
    store.show({ canCancel: true, onCancel });
    expect(store.getSnapshot().canCancel).toBe(false);
    expect(store.cancel()).toBe(false);
    store.hide(locked);
    expect(store.getSnapshot().canCancel).toBe(true);
    expect(store.cancel()).toBe(true);
    expect(store.getSnapshot().isVisible).toBe(false);
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('withLoader hides its request however the work ends', async () => {
    await expect(withLoader(async () => 7)).resolves.toBe(7);
    expect(loader.getSnapshot().isVisible).toBe(false);
    await expect(
      withLoader(async () => {
        expect(loader.getSnapshot().isVisible).toBe(true);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(loader.getSnapshot().isVisible).toBe(false);
  });
});
