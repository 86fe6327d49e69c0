import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../sync/api-client.ts';
import { log } from '../../../sync/log.ts';
import { secureStorage } from '../../../sync/secure-storage.ts';
import { forgetReview, loadReview, saveReview } from '../../lib/db/staff-cache.ts';
import { useStaffChoices, useStaffSession } from '../../lib/staff-hooks.ts';
import { staffRuntime } from '../../lib/staff-runtime.ts';
import { fetchReviewBundle } from './fetch-bundle.ts';
import type { ReviewBundle } from './types.ts';

// Logout and a 401 remove what this staff member reviewed from the device.

export type ReviewState =
  | { status: 'no-patient' }
  | { status: 'loading' }
  | { status: 'ready'; hospNo: string; bundle: ReviewBundle; fetchedAt: number; offline: boolean }
  | { status: 'error'; hospNo: string; message: string; offline: boolean };

/** The server could not be reached or is down: the cached copy is the best there is. */
const unavailable = (err: unknown) => err instanceof ApiError && (err.status === 0 || err.status >= 500);

export function useReview(): { state: ReviewState; reload: () => void; reset: () => Promise<void> } {
  const session = useStaffSession();
  const { userHospNo } = useStaffChoices();
  const loggedIn = session.status === 'logged-in';
  const restoring = session.status === 'unknown';
  const [state, setState] = useState<ReviewState>({ status: 'no-patient' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (restoring) {
      // The stored staff session is still being opened: wait for it rather than warn.
      setState({ status: 'loading' });
      void staffRuntime.ensureRestored();
      return;
    }
    if (!loggedIn || !userHospNo) {
      log.warn('Patient review skipped: no staff token or no chosen hospital number');
      setState({ status: 'no-patient' });
      return;
    }
    const hospNo = userHospNo;
    let current = true;
    setState({ status: 'loading' });
    void (async () => {
      try {
        const bundle = await fetchReviewBundle(staffRuntime.api, hospNo);
        const fetchedAt = Date.now();
        if (current) setState({ status: 'ready', hospNo, bundle, fetchedAt, offline: false });
        await saveReview(hospNo, { ...bundle }, fetchedAt).catch((err: unknown) => log.error('Failed to cache the patient review', err));
      } catch (err) {
        if (!current) return;
        const offline = unavailable(err);
        const cached = offline ? await loadReview(hospNo).catch(() => undefined) : undefined;
        if (!current) return;
        if (cached) {
          log.warn('Patient review: the server is unavailable, showing the offline copy', err);
          setState({ status: 'ready', hospNo, bundle: cached.data as unknown as ReviewBundle, fetchedAt: cached.fetchedAt, offline: true });
        } else {
          setState({ status: 'error', hospNo, message: err instanceof Error ? err.message : String(err), offline });
        }
      }
    })();
    return () => {
      current = false;
    };
  }, [restoring, loggedIn, userHospNo, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const reset = useCallback(async () => {
    if (userHospNo) await forgetReview(userHospNo).catch((err: unknown) => log.error('Failed to forget the patient review', err));
    setState({ status: 'no-patient' });
    staffRuntime.choosePatient(undefined);
    // The choice is kept sealed on the device: written now, so a reload does not bring the patient back.
    await secureStorage.flush().catch((err: unknown) => log.error('Failed to store the cleared patient choice', err));
  }, [userHospNo]);

  return { state, reload, reset };
}
