// Which meal a dose belongs to. A dose taken is one per prescription, patient-local day and meal
// slot (docs/sync-protocol.md); the device and the server must put a dose in the same slot, so both
// use this one function.

export const MEAL_SLOTS = ['breakfast', 'lunch', 'dinner'] as const;
export type MealSlot = (typeof MEAL_SLOTS)[number];

export const mealSlot = { type: 'string', enum: MEAL_SLOTS } as const;

const MINUTES_PER_DAY = 24 * 60;

/** Minutes since midnight of an "HH:MM" time; NaN when it is not one. */
function minutesOf(hhmm: string): number {
  const m = /^([01][0-9]|2[0-3]):([0-5][0-9])$/.exec(hhmm);
  return m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
}

/**
 * The meal whose time is nearest to `localTime` ("HH:MM" on the patient's clock), measured around
 * the 24-hour circle (a dose at 23:50 is near a 00:10 dinner). On a tie the earlier meal in
 * breakfast, lunch, dinner order wins. A meal time that is not "HH:MM" is never nearest; if none is,
 * or `localTime` is not a time, the answer is breakfast.
 */
export function mealSlotOf(localTime: string, timings: Readonly<Record<MealSlot, string>>): MealSlot {
  const t = minutesOf(localTime);
  let best: MealSlot = 'breakfast';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const slot of MEAL_SLOTS) {
    const diff = Math.abs(t - minutesOf(timings[slot]));
    const distance = Math.min(diff, MINUTES_PER_DAY - diff);
    // Strictly nearer only: ties keep the earlier meal. NaN compares false and is skipped.
    if (distance < bestDistance) {
      best = slot;
      bestDistance = distance;
    }
  }
  return best;
}
