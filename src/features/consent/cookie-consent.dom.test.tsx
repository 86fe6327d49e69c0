// What the app shell loads for cookie consent, and that the app goes on when the consent manager
// cannot start (docs/requirements.md §8 "Cookie consent manager not available"). c15t itself is replaced here by
// stand-ins; consent-flow.dom.test.tsx runs the real one.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { C15T_STORAGE_KEY, CONSENT_RECORD_KEY } from './consent-config.ts';
import type { ConsentRootProps } from './consent-root.tsx';
import { CONSENT_UNAVAILABLE, CookieConsent } from './cookie-consent.tsx';
import { DeferredBanner } from './deferred-banner.tsx';
import { clearConsentStorage, renderInApp } from './test-support.tsx';

const loadBanner = () => Promise.resolve({ DeferredBanner });
let errors: unknown[][];

beforeEach(() => {
  clearConsentStorage();
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const buttons = () => ['Reject All', 'Save Preferences', 'Accept All'].map((name) => screen.queryByRole('button', { name }));

describe('CookieConsent', () => {
  it('shows the banner when no choice is saved, and loads c15t only once the person starts to answer', async () => {
    const loadRoot = vi.fn(() => new Promise<never>(() => undefined));
    renderInApp(<CookieConsent mode="offline" scripts={[]} loadRoot={loadRoot} loadBanner={loadBanner} />);
    expect(await screen.findByRole('heading', { name: 'Cookie Preferences' })).toBeTruthy();
    expect(screen.getByText('Always Active')).toBeTruthy();
    expect(screen.getByRole('switch', { name: /Analytics/ })).toHaveProperty('checked', false);
    expect(screen.getByRole('switch', { name: /Functional/ })).toHaveProperty('checked', false);
    expect(buttons().every((b) => b !== null)).toBe(true);
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    expect(loadRoot).not.toHaveBeenCalled();

    fireEvent.pointerDown(screen.getByRole('switch', { name: /Analytics/ }));
    fireEvent.focus(screen.getByRole('button', { name: 'Accept All' }));
    expect(loadRoot).toHaveBeenCalledTimes(1);
  });

  it('loads nothing at all when a choice is saved (offline, no scripts)', async () => {
    localStorage.setItem(C15T_STORAGE_KEY, '{"consents":{"necessary":true},"consentInfo":{"time":1}}');
    const loadRoot = vi.fn(() => new Promise<never>(() => undefined));
    const banner = vi.fn(loadBanner);
    renderInApp(<CookieConsent mode="offline" scripts={[]} loadRoot={loadRoot} loadBanner={banner} />);
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByRole('heading', { name: 'Cookie Preferences' })).toBeNull();
    expect(loadRoot).not.toHaveBeenCalled();
    expect(banner).not.toHaveBeenCalled();
  });

  it('starts c15t at once in remote mode, and when scripts wait for consent', async () => {
    for (const props of [
      { mode: 'remote' as const, scripts: [] },
      { mode: 'offline' as const, scripts: [{ id: 't', src: '/t.js', category: 'analytics' as const }] },
    ]) {
      const Root = vi.fn((_: ConsentRootProps) => <p>c15t is running</p>);
      renderInApp(<CookieConsent {...props} loadRoot={() => Promise.resolve({ default: Root })} loadBanner={loadBanner} />);
      expect(await screen.findByText('c15t is running')).toBeTruthy();
      expect(Root.mock.calls[0]?.[0].handOver).toBeUndefined();
      cleanup();
    }
  });

  it('reads "Saving..." with every control disabled until c15t has taken over the choice', async () => {
    let resolve!: (m: { default: (p: ConsentRootProps) => React.JSX.Element }) => void;
    const loadRoot = () => new Promise<{ default: (p: ConsentRootProps) => React.JSX.Element }>((r) => (resolve = r));
    renderInApp(<CookieConsent mode="offline" scripts={[]} loadRoot={loadRoot} loadBanner={loadBanner} />);
    fireEvent.click(await screen.findByRole('switch', { name: /Functional/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeTruthy();
    expect(buttons()[1]).toBeNull();
    for (const b of screen.getAllByRole('button')) expect(b).toHaveProperty('disabled', true);
    for (const s of screen.getAllByRole('switch')) expect(s).toHaveProperty('disabled', true);

    const Root = vi.fn((p: ConsentRootProps) => <p>took over: {JSON.stringify(p.handOver)}</p>);
    await act(async () => resolve({ default: Root }));
    expect(screen.getByText(/took over/).textContent).toBe('took over: {"selected":{"analytics":false,"functional":true},"save":"custom"}');
  });

  it('keeps the banner and logs "Cookie consent manager not available" when c15t does not load', async () => {
    let attempts = 0;
    const loadRoot = () => {
      attempts++;
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    };
    renderInApp(<CookieConsent mode="offline" scripts={[]} loadRoot={loadRoot} loadBanner={loadBanner} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Accept All' }));
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(errors.some((e) => e[0] === CONSENT_UNAVAILABLE)).toBe(true);
    expect(screen.getByRole('heading', { name: 'Cookie Preferences' })).toBeTruthy();
    expect(buttons().every((b) => b !== null && !b.hasAttribute('disabled'))).toBe(true);
    expect(localStorage.getItem(CONSENT_RECORD_KEY)).toBeNull();
    // The next press tries again.
    fireEvent.click(screen.getByRole('button', { name: 'Reject All' }));
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(attempts).toBe(2);
  });

  it('logs "Cookie consent manager not available" and leaves the app alone when c15t throws while starting', async () => {
    const Broken = () => {
      throw new Error('localStorage is not available');
    };
    renderInApp(
      <>
        <p>the app</p>
        <CookieConsent mode="remote" scripts={[]} loadRoot={() => Promise.resolve({ default: Broken })} loadBanner={loadBanner} />
      </>,
    );
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(errors.some((e) => e[0] === CONSENT_UNAVAILABLE)).toBe(true);
    expect(screen.getByText('the app')).toBeTruthy();
  });

  it('logs it too when the banner itself does not load', async () => {
    renderInApp(<CookieConsent mode="offline" scripts={[]} loadBanner={() => Promise.reject(new Error('offline'))} />);
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(errors.some((e) => e[0] === CONSENT_UNAVAILABLE)).toBe(true);
  });
});
