// 'Welcome back, {name}!' after an auto-login (docs/requirements.md §8): said when the patient comes
// back to the app after a while away, not at every opening (issue 50: a toast at every open covered a
// phone's screen while the dashboard already greets by name). When the app was last opened on this
// device lives in plain local storage: a time, no patient data.
export const LAST_OPENED_KEY = 'eddy_last_opened_at';
/** Away this long or longer: a welcome back. */
export const WELCOME_BACK_AFTER_MS = 8 * 3600_000;

/** Notes this opening at `now`; true when the one before was long enough ago, or is unknown. */
export function openedAfterAWhile(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined, now: number): boolean {
  const last = Number(storage?.getItem(LAST_OPENED_KEY) ?? Number.NaN);
  try {
    storage?.setItem(LAST_OPENED_KEY, String(now));
  } catch {
    // Storage full or refused (a private window): the greeting is said, as on a first opening.
  }
  // A time after now is a clock set back: greeted, as if unknown.
  return !Number.isFinite(last) || last > now || now - last >= WELCOME_BACK_AFTER_MS;
}
