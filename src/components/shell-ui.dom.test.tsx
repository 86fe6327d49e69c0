import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loader } from '../lib/ui/loader-store.ts';
import { toast, toasts } from '../lib/ui/toast-store.ts';
import { LoaderOverlay } from './loader-overlay.tsx';
import { Toaster } from './toaster.tsx';

const wrap = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(() => {
  act(() => {
    loader.hideAll();
    toasts.clear();
  });
  cleanup();
});

describe('LoaderOverlay', () => {
  it('keeps an empty live region while hidden and fills it while a request is active', () => {
    wrap(<LoaderOverlay />);
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    act(() => void loader.show({ progress: 42.4 }));
    expect(region.textContent).toContain('Loading...');
    expect(region.textContent).toContain('Please wait while we process your request');
    expect(region.style.zIndex).toBe('99999');
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('42');
    expect(bar.getAttribute('aria-label')).toBe('Loading...');
  });

  it('locks the page scroll while shown and restores it after', () => {
    wrap(<LoaderOverlay />);
    document.documentElement.style.overflow = 'auto';
    let id = '';
    act(() => void (id = loader.show()));
    expect(document.documentElement.style.overflow).toBe('hidden');
    act(() => loader.hide(id));
    expect(document.documentElement.style.overflow).toBe('auto');
    act(() => void loader.show({ lockScroll: false }));
    expect(document.documentElement.style.overflow).toBe('auto');
  });

  it('cancels on a click only when cancelling is allowed', () => {
    wrap(<LoaderOverlay />);
    act(() => void loader.show({ loadingText: 'Saving' }));
    fireEvent.click(screen.getByRole('status'));
    expect(loader.getSnapshot().isVisible).toBe(true);
    act(() => loader.hideAll());
    act(() => void loader.show({ canCancel: true }));
    expect(screen.getByRole('status').textContent).toContain('cancel');
    fireEvent.click(screen.getByRole('status'));
    expect(loader.getSnapshot().isVisible).toBe(false);
  });

  it('hides on a window error', () => {
    wrap(<LoaderOverlay />);
    act(() => void loader.show());
    act(() => void window.dispatchEvent(new Event('unhandledrejection')));
    expect(screen.getByRole('status').textContent).toBe('');
  });
});

describe('Toaster', () => {
  it('announces errors as alerts and other toasts as status, one at a time', () => {
    wrap(<Toaster />);
    act(() => {
      toast({ type: 'error', title: 'Sync', text: 'Something went wrong.' });
      toast({ type: 'success', text: { id: 'synced', message: 'Data synchronized successfully' } });
    });
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong.');
    expect(screen.getByRole('alert').textContent).toContain('Sync');
    expect(screen.getByRole('alert').style.backgroundColor).toBe('rgb(255, 82, 82)');
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('Data synchronized successfully');
    expect(screen.getByRole('status').style.backgroundColor).toBe('rgb(76, 175, 80)');
  });

  it('shows a repeat count and closes with a labelled button', () => {
    wrap(<Toaster />);
    act(() => {
      toast({ type: 'warning', text: 'Offline' });
      toast({ type: 'warning', text: 'Offline' });
    });
    expect(screen.getAllByRole('status')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toContain('×2');
    expect(screen.getByRole('status').textContent).toContain('Shown 2 times');
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('has no close button when not dismissible', () => {
    wrap(<Toaster />);
    act(() => void toast({ type: 'info', text: 'Read only', dismissible: false }));
    expect(screen.queryByRole('button')).toBeNull();
  });
});
