// A choice saved by c15t 1.x, kept for c15t 2.x, so a device that answered the banner before the
// update is not asked again. Offline mode stored { consents, consentInfo: { time, type } }, which
// c15t 2.x reads as it is. Remote mode also kept the server's record id (consentInfo.id): c15t 2.x
// takes a stored id without a subject id (the device-made id it now sends with every save) for a
// choice made under its old model, deletes it and asks again. Such a choice gets a subject id here,
// before c15t reads it; the record id stays, and POST /api/c15t/consent/verify still answers for it.
// Saves c15t 1.x queued while the server was down get the same subject id, since c15t 2.x resends
// them to POST /api/c15t/subjects, which wants one.
import { generateSubjectId, getCookie, saveConsentToStorage, type ConsentState } from './c15t.ts';
import { C15T_PENDING_KEY, C15T_STORAGE_KEY } from './consent-config.ts';

interface StoredChoice {
  consents: Partial<ConsentState>;
  consentInfo: { time: number } & Record<string, unknown>;
}

function isChoice(value: unknown): value is StoredChoice {
  const v = value as Partial<StoredChoice> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.consents === 'object' && v.consents !== null && typeof v.consentInfo === 'object' && v.consentInfo !== null
  );
}

/** The stored choice as c15t wrote it: local storage (exact JSON), else its cookie. */
function readStoredChoice(): StoredChoice | null {
  try {
    const local: unknown = JSON.parse(localStorage.getItem(C15T_STORAGE_KEY) ?? 'null');
    if (isChoice(local)) return local;
  } catch {
    // Unreadable: c15t will find nothing either.
  }
  const cookie = getCookie<unknown>(C15T_STORAGE_KEY);
  return isChoice(cookie) ? cookie : null;
}

function readQueue(): Record<string, unknown>[] {
  try {
    const queue: unknown = JSON.parse(localStorage.getItem(C15T_PENDING_KEY) ?? '[]');
    return Array.isArray(queue) ? (queue as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}

/** Brings what c15t 1.x stored on this device into c15t 2.x's form; does nothing when there is none. */
export function migrateLegacyConsent(): void {
  try {
    const stored = readStoredChoice();
    const queue = readQueue();
    const legacyRecord = stored !== null && typeof stored.consentInfo['id'] === 'string' && typeof stored.consentInfo['subjectId'] !== 'string';
    const legacyQueue = queue.some((q) => typeof q['subjectId'] !== 'string');
    if (!legacyRecord && !legacyQueue) return;

    const known = stored?.consentInfo['subjectId'];
    const subjectId = typeof known === 'string' ? known : generateSubjectId();
    if (stored && typeof known !== 'string') {
      saveConsentToStorage({ consents: stored.consents, consentInfo: { ...stored.consentInfo, subjectId } }, undefined, { storageKey: C15T_STORAGE_KEY });
    }
    if (legacyQueue) {
      localStorage.setItem(C15T_PENDING_KEY, JSON.stringify(queue.map((q) => (typeof q['subjectId'] === 'string' ? q : { ...q, subjectId }))));
    }
  } catch {
    // Storage refused: c15t 2.x then asks again, which is what it would have done anyway.
  }
}
