// The app's own copy of the cookie choice (docs/requirements.md §3 consent record, §9 key eddy-cookie-consent):
// type, domain, preferences in the banner's words and the time it was made. c15t keeps its state
// under c15t-consent (local storage and a cookie); both are written together and removed together.
import { C15T_STORAGE_KEY, CONSENT_RECORD_KEY, type ConsentCategory } from './consent-config.ts';

export type ConsentChoice = Record<ConsentCategory, boolean>;

export interface ConsentRecord {
  type: 'cookie_banner';
  domain: string;
  /** Essential storage cannot be refused (docs/requirements.md §5), so `necessary` is always true. */
  preferences: { necessary: true } & ConsentChoice;
  timestamp: number;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** Throws when the browser refuses to store it (storage full or blocked): then nothing was saved. */
export function writeConsentRecord(choice: ConsentChoice, storage: StorageLike = localStorage, domain = location.hostname, now = Date.now()): ConsentRecord {
  const record: ConsentRecord = {
    type: 'cookie_banner',
    domain,
    preferences: { necessary: true, analytics: choice.analytics, functional: choice.functional },
    timestamp: now,
  };
  storage.setItem(CONSENT_RECORD_KEY, JSON.stringify(record));
  return record;
}

export function readConsentRecord(storage: StorageLike = localStorage): ConsentRecord | null {
  try {
    const value: unknown = JSON.parse(storage.getItem(CONSENT_RECORD_KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const prefs = (value as { preferences?: Record<string, unknown> }).preferences;
    if (typeof prefs?.['analytics'] !== 'boolean' || typeof prefs['functional'] !== 'boolean') return null;
    return value as ConsentRecord;
  } catch {
    return null;
  }
}

/**
 * Whether a choice is saved on this device: c15t's copy, in local storage or its cookie (c15t reads
 * both). Undefined when local storage cannot be used at all: then nothing could be saved either, and
 * c15t would not show its banner.
 */
export function hasSavedConsent(storage: Pick<Storage, 'getItem'> = localStorage, cookies = document.cookie): boolean | undefined {
  try {
    if (storage.getItem(C15T_STORAGE_KEY) !== null) return true;
  } catch {
    return undefined;
  }
  return cookies.split(';').some((c) => c.trim().startsWith(`${C15T_STORAGE_KEY}=`));
}

export function removeConsentRecord(storage: StorageLike = localStorage): void {
  storage.removeItem(CONSENT_RECORD_KEY);
}

/**
 * "Cookie preferences" (docs/requirements.md §4 reset): forgets the choice on this device, c15t's copy (local storage
 * and cookie) included, and reloads so the banner asks again. Saves still queued for the server
 * stay queued: they are proof of a choice that was made.
 */
export async function resetConsent(reload: () => void = () => location.reload()): Promise<void> {
  removeConsentRecord();
  const { deleteConsentFromStorage } = await import('./c15t.ts');
  deleteConsentFromStorage(undefined, { storageKey: C15T_STORAGE_KEY });
  reload();
}
