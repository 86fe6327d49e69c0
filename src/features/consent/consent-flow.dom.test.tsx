// The banner and the script registry on the real c15t (offline mode), as one visit: a choice, another
// tab changing it, a reset elsewhere, a save the browser refuses. Each step builds on the last,
// because c15t keeps one store per page for the page's lifetime.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { deleteConsentFromStorage, saveConsentToStorage } from 'c15t';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { C15T_STORAGE_KEY, CONSENT_RECORD_KEY } from './consent-config.ts';
import ConsentRoot, { type ConsentRootProps } from './consent-root.tsx';
import { CookieConsent } from './cookie-consent.tsx';
import { toC15tScripts, type ConsentScript } from './scripts.ts';
import { clearConsentStorage, renderInApp } from './test-support.tsx';

const testScripts: ConsentScript[] = [
  { id: 'analytics-test', src: '/analytics-test.js', category: 'analytics' },
  { id: 'functional-test', src: '/functional-test.js', category: 'functional' },
];
const loaded = (name: string) => document.querySelector(`script[src="/${name}.js"]`) !== null;
const stored = () => JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? 'null') as { consents: Record<string, boolean> } | null;
const record = () => JSON.parse(localStorage.getItem(CONSENT_RECORD_KEY) ?? 'null') as { preferences: Record<string, boolean> } | null;

/** What another tab does: c15t writes local storage and its cookie, and this tab hears a storage event. */
function otherTab(consents: Record<string, boolean> | null): void {
  if (consents) saveConsentToStorage({ consents, consentInfo: { time: Date.now(), type: 'custom' } }, undefined, { storageKey: C15T_STORAGE_KEY });
  else deleteConsentFromStorage(undefined, { storageKey: C15T_STORAGE_KEY });
  window.dispatchEvent(new StorageEvent('storage', { key: C15T_STORAGE_KEY }));
}
const consents = (analytics: boolean, functional: boolean) => ({
  necessary: true,
  measurement: analytics,
  functionality: functional,
  experience: false,
  marketing: false,
});

let errors: unknown[][];
beforeAll(async () => {
  clearConsentStorage();
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
  for (const level of ['log', 'debug', 'warn'] as const) vi.spyOn(console, level).mockImplementation(() => undefined);
  const loadRoot = () =>
    Promise.resolve({ default: (p: ConsentRootProps) => <ConsentRoot {...p} setup={{ mode: 'offline', scripts: toC15tScripts(testScripts) }} /> });
  // As on a first visit with a registry that is empty: the banner first, c15t when answered.
  renderInApp(<CookieConsent mode="offline" scripts={[]} loadRoot={loadRoot} />);
  await screen.findByRole('heading', { name: 'Cookie Preferences' });
});
afterAll(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('consent on c15t', () => {
  it('loads no consent-gated script before a choice', () => {
    expect(loaded('analytics-test')).toBe(false);
    expect(loaded('functional-test')).toBe(false);
  });

  it('Save Preferences keeps the switches, saves, hides the banner and loads only the allowed script', async () => {
    fireEvent.click(screen.getByRole('switch', { name: /Analytics/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Cookie Preferences' })).toBeNull());
    expect(record()?.preferences).toEqual({ necessary: true, analytics: true, functional: false });
    expect(stored()?.consents).toMatchObject(consents(true, false));
    expect(loaded('analytics-test')).toBe(true);
    expect(loaded('functional-test')).toBe(false);
  });

  it('follows a change made in another tab: scripts re-evaluated, banner still hidden', async () => {
    act(() => otherTab(consents(false, true)));
    await waitFor(() => expect(loaded('functional-test')).toBe(true));
    expect(loaded('analytics-test')).toBe(false);
    expect(screen.queryByRole('heading', { name: 'Cookie Preferences' })).toBeNull();
  });

  it('asks again after a reset in another tab, with the gated scripts gone', async () => {
    act(() => otherTab(null));
    expect(await screen.findByRole('heading', { name: 'Cookie Preferences' })).toBeTruthy();
    expect(loaded('functional-test')).toBe(false);
    expect(loaded('analytics-test')).toBe(false);
  });

  it('keeps the banner and only logs when the browser refuses to save', async () => {
    const setItem = Storage.prototype.setItem;
    const spy = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key: string, value: string) {
      if (key === CONSENT_RECORD_KEY) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      setItem.call(this, key, value);
    });
    localStorage.removeItem(CONSENT_RECORD_KEY);
    fireEvent.click(screen.getByRole('button', { name: 'Accept All' }));
    await act(() => new Promise((r) => setTimeout(r, 20)));
    spy.mockRestore();
    expect(errors.some((e) => e[0] === 'Saving the cookie preferences failed')).toBe(true);
    expect(screen.getByRole('heading', { name: 'Cookie Preferences' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Accept All' })).toHaveProperty('disabled', false);
    expect(stored()).toBeNull();
    expect(loaded('analytics-test')).toBe(false);
  });

  it('Accept All allows both, Reject All refuses both', async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Accept All' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Cookie Preferences' })).toBeNull());
    expect(record()?.preferences).toEqual({ necessary: true, analytics: true, functional: true });
    expect(loaded('analytics-test') && loaded('functional-test')).toBe(true);

    act(() => otherTab(null));
    fireEvent.click(await screen.findByRole('button', { name: 'Reject All' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Cookie Preferences' })).toBeNull());
    expect(record()?.preferences).toEqual({ necessary: true, analytics: false, functional: false });
    expect(stored()?.consents).toMatchObject(consents(false, false));
    expect(loaded('analytics-test') || loaded('functional-test')).toBe(false);
  });
});
