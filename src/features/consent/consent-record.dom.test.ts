import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { C15T_PENDING_KEY, C15T_STORAGE_KEY, CONSENT_RECORD_KEY } from './consent-config.ts';
import { hasSavedConsent, readConsentRecord, resetConsent, writeConsentRecord } from './consent-record.ts';
import { clearConsentStorage } from './test-support.tsx';

beforeEach(clearConsentStorage);
afterEach(() => vi.restoreAllMocks());

describe('the consent record (docs/requirements.md §3)', () => {
  it('is type, domain, preferences with necessary always true, and the time', () => {
    writeConsentRecord({ analytics: true, functional: false }, localStorage, 'eddy.example', 1_700_000_000_000);
    expect(JSON.parse(localStorage.getItem(CONSENT_RECORD_KEY) ?? '')).toEqual({
      type: 'cookie_banner',
      domain: 'eddy.example',
      preferences: { necessary: true, analytics: true, functional: false },
      timestamp: 1_700_000_000_000,
    });
    expect(readConsentRecord()?.preferences.analytics).toBe(true);
  });

  it('reads nothing from a missing or malformed record', () => {
    expect(readConsentRecord()).toBeNull();
    for (const bad of ['{', '"x"', '{"preferences":{"analytics":"yes","functional":false}}']) {
      localStorage.setItem(CONSENT_RECORD_KEY, bad);
      expect(readConsentRecord(), bad).toBeNull();
    }
  });

  it('throws when the browser refuses to store it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    expect(() => writeConsentRecord({ analytics: false, functional: false })).toThrow('quota');
  });
});

describe('hasSavedConsent', () => {
  it("follows c15t's copy, in local storage or its cookie", () => {
    expect(hasSavedConsent()).toBe(false);
    localStorage.setItem(C15T_STORAGE_KEY, '{}');
    expect(hasSavedConsent()).toBe(true);
    localStorage.clear();
    expect(hasSavedConsent(localStorage, 'i18n_redirected=es; c15t-consent=c.necessary:1,i.t:1')).toBe(true);
    // Only our own record is not enough: c15t would ask again.
    localStorage.setItem(CONSENT_RECORD_KEY, '{}');
    expect(hasSavedConsent()).toBe(false);
  });

  it('is undefined when local storage cannot be used', () => {
    const blocked = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(hasSavedConsent(blocked, '')).toBeUndefined();
  });
});

describe('resetConsent (docs/requirements.md §4)', () => {
  it("removes the stored consent (ours and c15t's, cookie included), keeps queued proof, and reloads", async () => {
    localStorage.setItem(CONSENT_RECORD_KEY, '{}');
    localStorage.setItem(C15T_STORAGE_KEY, '{}');
    localStorage.setItem(C15T_PENDING_KEY, '[{}]');
    localStorage.setItem('eddy_user_glucose_unit', 'mmol');
    document.cookie = `${C15T_STORAGE_KEY}=c.necessary:1; path=/`;
    const reload = vi.fn();
    await resetConsent(reload);
    expect(localStorage.getItem(CONSENT_RECORD_KEY)).toBeNull();
    expect(localStorage.getItem(C15T_STORAGE_KEY)).toBeNull();
    expect(document.cookie).not.toContain(C15T_STORAGE_KEY);
    expect(localStorage.getItem(C15T_PENDING_KEY)).toBe('[{}]');
    expect(localStorage.getItem('eddy_user_glucose_unit')).toBe('mmol');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
