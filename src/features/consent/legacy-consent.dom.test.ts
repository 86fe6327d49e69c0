// A device that answered the banner under c15t 1.x is not asked again under c15t 2.x: what 1.x
// stored (written here as 1.x wrote it, to local storage and its cookie) still reads as a saved choice.
import { getConsentFromStorage, saveConsentToStorage } from 'c15t';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { C15T_PENDING_KEY, C15T_STORAGE_KEY } from './consent-config.ts';
import { migrateLegacyConsent } from './legacy-consent.ts';
import { clearConsentStorage } from './test-support.tsx';

const config = { storageKey: C15T_STORAGE_KEY };
const consents = { necessary: true, functionality: false, measurement: true, experience: false, marketing: false };
const SUBJECT = /^sub_[1-9A-HJ-NP-Za-km-z]+$/;
const read = () => getConsentFromStorage(config) as { consents: Record<string, boolean>; consentInfo: Record<string, unknown> } | null;
const local = () => JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? 'null') as { consentInfo: Record<string, unknown> } | null;

/** What c15t 1.x stored after a save in remote mode: the server's record id, and no subject id. */
function remoteModeChoice(): void {
  saveConsentToStorage(
    { consents, consentInfo: { time: 1_750_000_000_000, id: 'c1f0e2d4-0000-4000-8000-000000000001', identified: false } },
    undefined,
    config,
  );
}

beforeEach(() => {
  clearConsentStorage();
  // c15t notes on the console that it dropped a 1.x choice.
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('migrateLegacyConsent', () => {
  it('shows why it is needed: c15t 2.x drops a remote-mode choice of c15t 1.x', () => {
    remoteModeChoice();
    expect(read()).toBeNull();
    expect(localStorage.getItem(C15T_STORAGE_KEY)).toBeNull();
  });

  it('gives that choice a subject id, keeping the record id, the time and the choice', () => {
    remoteModeChoice();
    migrateLegacyConsent();
    const choice = read();
    expect(choice?.consents).toEqual(consents);
    expect(choice?.consentInfo).toMatchObject({
      time: 1_750_000_000_000,
      id: 'c1f0e2d4-0000-4000-8000-000000000001',
      subjectId: expect.stringMatching(SUBJECT),
    });
    // Both copies (local storage and cookie) carry it, and it is made once.
    expect(local()?.consentInfo['subjectId']).toBe(choice?.consentInfo['subjectId']);
    migrateLegacyConsent();
    expect(read()?.consentInfo['subjectId']).toBe(choice?.consentInfo['subjectId']);
  });

  it('reads the choice from the cookie when local storage lost it', () => {
    remoteModeChoice();
    localStorage.removeItem(C15T_STORAGE_KEY);
    expect(document.cookie).toContain(`${C15T_STORAGE_KEY}=`);
    migrateLegacyConsent();
    expect(read()).toMatchObject({ consents, consentInfo: { id: 'c1f0e2d4-0000-4000-8000-000000000001', subjectId: expect.stringMatching(SUBJECT) } });
  });

  it('leaves an offline-mode choice of c15t 1.x as it is: c15t 2.x reads it already', () => {
    const written = { consents, consentInfo: { time: 1_750_000_000_000, type: 'custom', identified: false } };
    localStorage.setItem(C15T_STORAGE_KEY, JSON.stringify(written));
    migrateLegacyConsent();
    expect(localStorage.getItem(C15T_STORAGE_KEY)).toBe(JSON.stringify(written));
    expect(read()).toMatchObject({ consents, consentInfo: { time: 1_750_000_000_000, type: 'custom' } });
  });

  it('gives saves c15t 1.x queued the subject id of the device, so c15t 2.x can resend them', () => {
    saveConsentToStorage({ consents, consentInfo: { time: 1_750_000_000_000, identified: false } }, undefined, config);
    const queued = [
      { type: 'cookie_banner', domain: 'eddy.example', preferences: consents, metadata: { source: 'consent_widget', acceptanceMethod: 'custom' } },
      { type: 'cookie_banner', domain: 'eddy.example', preferences: consents, subjectId: 'sub_2jv6z8n4q9' },
    ];
    localStorage.setItem(C15T_PENDING_KEY, JSON.stringify(queued));
    migrateLegacyConsent();
    const subjectId = read()?.consentInfo['subjectId'];
    expect(subjectId).toMatch(SUBJECT);
    expect(JSON.parse(localStorage.getItem(C15T_PENDING_KEY) ?? '[]')).toEqual([{ ...queued[0], subjectId }, queued[1]]);
  });

  it('writes nothing when nothing was saved', () => {
    migrateLegacyConsent();
    expect(localStorage.length).toBe(0);
    expect(document.cookie).toBe('');
  });
});
