import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../../sync/api-client.ts';
import { inBackground } from '../../../sync/background.ts';
import { log } from '../../../sync/log.ts';
import { secureStorage } from '../../../sync/storage/secure-storage.ts';
import { forgetReview, loadReview, saveReview } from '../../../sync/storage/staff-cache.ts';
import { useLiveChanges } from '../../lib/live-changes.ts';
import type { ApiClient } from '../../../sync/api-client.ts';
import { useStaffChoices, useStaffRuntime, useStaffSession } from '../../lib/runtime-context.tsx';
import { patientWrites } from '../../lib/staff-api.ts';
import { fetchReview } from './fetch-bundle.ts';
import type { ReviewBundle } from './types.ts';

// Logout and a 401 remove what this staff member reviewed from the device.

/**
 * A change announced is looked at this long after: events close together make one refresh. (A
 * staff change's own refresh is counted from when the change is sent, so no wait is needed for it.)
 */
const LIVE_SETTLE_MS = 100;

export type ReviewState =
  | { status: 'no-patient' }
  | { status: 'loading' }
  /** `refreshing`: the device's own copy, shown while the server is asked what changed since. */
  | { status: 'ready'; hospNo: string; bundle: ReviewBundle; fetchedAt: number; offline: boolean; refreshing: boolean }
  | { status: 'error'; hospNo: string; message: string; offline: boolean };

/** The server could not be reached or is down: the cached copy is the best there is. */
const unavailable = (err: unknown) => err instanceof ApiError && (err.status === 0 || err.status >= 500);

/**
 * The review brought up to date from the server (only what changed since `held`, or whole), then
 * kept in the encrypted copy; `show` has it as soon as it is in, before it is written down.
 */
async function fetchAndKeep(
  api: ApiClient,
  hospNo: string,
  held: ReviewBundle | undefined,
  show: (fresh: { bundle: ReviewBundle; fetchedAt: number }) => void,
): Promise<void> {
  const bundle = await fetchReview(api, hospNo, held);
  const fetchedAt = Date.now();
  show({ bundle, fetchedAt });
  await saveReview(hospNo, bundle, fetchedAt).catch((err: unknown) => log.error('Failed to cache the patient review', err));
}

/**
 * The chosen patient's review. `reload` starts over (the kept copy, then the server); `refresh` asks
 * the server for what changed since the review on screen and applies it in place, with nothing
 * taken off the screen meanwhile (after an admin's change to the patient, say).
 */
export function useReview(): { state: ReviewState; reload: () => void; refresh: () => void; reset: () => Promise<void> } {
  const staffRuntime = useStaffRuntime();
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
    // Local-first (issue 46): the copy this device holds shows at once, marked as of when it was
    // read; the server is then asked for what changed since its version (one request, one audit
    // row) and the copy brought up to date. Without a copy the review is fetched whole.
    const load = async () => {
      const kept = await loadReview(hospNo).catch((err: unknown) => {
        log.error('Failed to open the kept patient review', err);
        return undefined;
      });
      const held = kept ? { bundle: kept.data as ReviewBundle, fetchedAt: kept.fetchedAt } : undefined;
      if (held) settle({ status: 'ready', hospNo, ...held, offline: false, refreshing: true });
      try {
        await fetchAndKeep(staffRuntime.api, hospNo, held?.bundle, (fresh) => settle({ status: 'ready', hospNo, ...fresh, offline: false, refreshing: false }));
      } catch (err) {
        if (!current) return;
        const offline = unavailable(err);
        if (held && offline) {
          log.warn('Patient review: the server is unavailable, showing the offline copy', err);
          settle({ status: 'ready', hospNo, ...held, offline: true, refreshing: false });
        } else {
          // Refused (the patient moved to a hospital this staff member cannot see, say): the kept
          // copy is not shown either.
          settle({ status: 'error', hospNo, message: err instanceof Error ? err.message : String(err), offline });
        }
      }
    };
    inBackground(load(), 'Loading the patient review failed');
    return () => {
      current = false;
    };
  }, [restoring, loggedIn, userHospNo, attempt, staffRuntime]);

  const state = useMemo<ReviewState>(
    () => (wanted === undefined ? { status: 'no-patient' } : settled?.wanted === wanted ? settled.state : { status: 'loading' }),
    [wanted, settled],
  );
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  const [refreshes, setRefreshes] = useState(0);
  // Refreshes on their way (a staff change's own, or a live one), and what to do once one is back.
  // `asked`: refreshes asked for whose request has not started yet (it starts after the next render).
  const inFlight = useRef(0);
  const asked = useRef(0);
  const afterRefresh = useRef<() => void>(() => undefined);
  // The review on screen, and which review it is, as the last render had them.
  const shown = useRef({ state, wanted });
  useEffect(() => {
    shown.current = { state, wanted };
  });
  useEffect(() => {
    const { state: now, wanted: key } = shown.current;
    asked.current = 0;
    // Not once the staff session has ended (a 401 a moment ago): nothing is sent on an ended session.
    if (refreshes === 0 || now.status !== 'ready' || key === undefined || staffRuntime.session.token() === undefined) return undefined;
    let live = true;
    const settle = (next: ReviewState) => live && setSettled({ wanted: key, state: next });
    const refresh = async () => {
      inFlight.current += 1;
      try {
        await fetchAndKeep(staffRuntime.api, now.hospNo, now.bundle, (fresh) => settle({ ...now, ...fresh, offline: false, refreshing: false }));
      } catch (err) {
        // What is shown stays; an unreachable server marks it as the offline copy it now is.
        log.warn('Refreshing the patient review failed', err);
        if (unavailable(err)) settle({ ...now, offline: true, refreshing: false });
      } finally {
        inFlight.current -= 1;
        if (live) afterRefresh.current();
      }
    };
    inBackground(refresh(), 'Refreshing the patient review failed');
    return () => {
      live = false;
    };
    // Only a refresh asked for runs; the review it starts from is the one on screen then.
  }, [refreshes, staffRuntime]);
  const refresh = useCallback(() => {
    asked.current += 1;
    setRefreshes((n) => n + 1);
  }, []);
  // Live (issue 46): the server says when this patient's records take a version newer than the one
  // shown, and the review asks for what changed since, in place. Not while a refresh is on its way
  // (the review's own, after a staff change, or the first after opening), nor while a staff change
  // to this patient is (its signal can come before its answer, which asks for a refresh): once it
  // is back, only a version still newer than what it brought is asked for.
  const announced = useRef<{ version: number; any: boolean }>({ version: -1, any: false });
  const check = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const askIfNewer = useCallback(() => {
    if (check.current !== undefined) clearTimeout(check.current);
    check.current = setTimeout(() => {
      check.current = undefined;
      const now = shown.current.state;
      // A refresh on its way may bring the announced version: it is looked at again once back.
      if (now.status !== 'ready' || now.refreshing || inFlight.current > 0 || asked.current > 0 || patientWrites.onTheirWay(now.hospNo)) return;
      const have = now.bundle.version;
      const wanted = announced.current;
      if (wanted.any || have === undefined || wanted.version > have) {
        announced.current = { version: -1, any: false };
        refresh();
      }
    }, LIVE_SETTLE_MS);
  }, [refresh]);
  const following = state.status === 'ready' ? state.hospNo : undefined;
  useLiveChanges(following === undefined ? undefined : `?hospNo=${encodeURIComponent(following)}`, staffRuntime.live, (change) => {
    const was = announced.current;
    announced.current = {
      version: Math.max(was.version, change.version ?? -1),
      any: was.any || change.kind === 'poll' || change.gap || change.version === undefined,
    };
    askIfNewer();
  });
  const settledNow = state.status === 'ready' && !state.refreshing;
  const pending = useCallback(() => announced.current.any || announced.current.version >= 0, []);
  useEffect(() => {
    if (settledNow && pending()) askIfNewer();
  }, [settledNow, askIfNewer, pending]);
  useEffect(() => {
    afterRefresh.current = () => {
      if (pending()) askIfNewer();
    };
  }, [askIfNewer, pending]);
  // A staff change answered (or failed): a signal held for it is looked at again.
  useEffect(
    () =>
      patientWrites.subscribe((hospNo) => {
        if (hospNo === following && pending()) askIfNewer();
      }),
    [following, askIfNewer, pending],
  );
  useEffect(
    () => () => {
      if (check.current !== undefined) clearTimeout(check.current);
    },
    [],
  );
  const reset = useCallback(async () => {
    if (userHospNo) await forgetReview(userHospNo).catch((err: unknown) => log.error('Failed to forget the patient review', err));
    // No chosen patient is "no patient": what was shown goes with the choice.
    staffRuntime.choosePatient(undefined);
    // The choice is kept sealed on the device: written now, so a reload does not bring the patient back.
    await secureStorage.flush().catch((err: unknown) => log.error('Failed to store the cleared patient choice', err));
  }, [userHospNo, staffRuntime]);

  return { state, reload, refresh, reset };
}
