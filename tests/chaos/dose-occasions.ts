// What the final check expects of doses (tests/chaos/one-run.ts): the server keeps one dose per
// medicine and meal (server/services/medicine-service.ts), so the same medicine marked on two devices
// before either had the other's is one dose, and the second device is told so
// (sync/refusals.ts settleAutomatically).
/** Same-dose window: marks of one medicine closer than this are one medicine-and-meal occasion. */
export const SAME_DOSE_WINDOW_MS = 30 * 60_000;

/** How many doses the server must hold for these marks: per medicine, marks within SAME_DOSE_WINDOW_MS of the one before count once. */
export function countDoseOccasions(marks: readonly { medicine: string; at: number }[]): number {
  let n = 0;
  const last = new Map<string, number>();
  for (const { medicine, at } of [...marks].sort((a, b) => a.at - b.at)) {
    const before = last.get(medicine);
    if (before === undefined || at - before >= SAME_DOSE_WINDOW_MS) n++;
    last.set(medicine, at);
  }
  return n;
}
