// When the server must hold a record's time, as the runner's final check expects it.

/**
 * When a lab result made at `madeAt` (device time) is stored: the lab form dates a result by its
 * day, at local noon (src/features/labs/lab-rules.ts, recordedAtFor), or when it was made if that was
 * before noon (a result from the future is refused). The browser shares this process's time zone.
 */
export function labTimeFor(madeAt: number): number {
  const made = new Date(madeAt);
  const noon = new Date(made.getFullYear(), made.getMonth(), made.getDate(), 12).getTime();
  return Math.min(noon, madeAt);
}
