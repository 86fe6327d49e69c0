import { useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError } from '../../../sync/api-client.ts';
import { inBackground, log } from '../../../sync/log.ts';
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
  const [attempt, setAttempt] = useState(0);
  // Which review is wanted now; "loading" is a wanted review without its outcome yet.
  const wanted = restoring ? 'restoring' : loggedIn && userHospNo ? `${attempt} ${userHospNo}` : undefined;
  const [settled, setSettled] = useState<{ wanted: string; state: ReviewState }>();

  useEffect(() => {
    if (restoring) {
      // The stored staff session is still being opened: wait for it rather than warn.
      inBackground(staffRuntime.ensureRestored(), 'Restoring the staff session failed');
      return;
    }
    if (!loggedIn || !userHospNo) {
      log.warn('Patient review skipped: no staff token or no chosen hospital number');
      return;
    }
    const hospNo = userHospNo;
    const key = `${attempt} ${hospNo}`;
    let current = true;
    const settle = (state: ReviewState) => current && setSettled({ wanted: key, state });
    const load = async () => {
      try {
        const bundle = await fetchReviewBundle(staffRuntime.api, hospNo);
        const fetchedAt = Date.now();
        settle({ status: 'ready', hospNo, bundle, fetchedAt, offline: false });
        await saveReview(hospNo, bundle, fetchedAt).catch((err: unknown) => log.error('Failed to cache the patient review', err));
      } catch (err) {
        if (!current) return;
        const offline = unavailable(err);
        const cached = offline ? await loadReview(hospNo).catch(() => undefined) : undefined;
        if (cached) {
          log.warn('Patient review: the server is unavailable, showing the offline copy', err);
          // The bundle this device saved above for this patient, opened from its encrypted copy.
          settle({ status: 'ready', hospNo, bundle: cached.data as ReviewBundle, fetchedAt: cached.fetchedAt, offline: true });
        } else {
          settle({ status: 'error', hospNo, message: err instanceof Error ? err.message : String(err), offline });
        }
      }
    };
    inBackground(load(), 'Loading the patient review failed');
    return () => {
      current = false;
    };
  }, [restoring, loggedIn, userHospNo, attempt]);

  const state = useMemo<ReviewState>(
    () => (wanted === undefined ? { status: 'no-patient' } : settled?.wanted === wanted ? settled.state : { status: 'loading' }),
    [wanted, settled],
  );
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const reset = useCallback(async () => {
    if (userHospNo) await forgetReview(userHospNo).catch((err: unknown) => log.error('Failed to forget the patient review', err));
    // No chosen patient is "no patient": what was shown goes with the choice.
    staffRuntime.choosePatient(undefined);
    // The choice is kept sealed on the device: written now, so a reload does not bring the patient back.
    await secureStorage.flush().catch((err: unknown) => log.error('Failed to store the cleared patient choice', err));
  }, [userHospNo]);

  return { state, reload, reset };
}
