// The per-field rule for meal times (docs/sync-protocol.md, "profile: meal times"), once for the
// patient's devices and the staff area.
import { MEAL_SLOTS, type MealSlot } from '../../schemas/dose-slot.ts';
import type { NotificationTimings, TimingsVersions } from '../db/schema.ts';

export interface MealTimeChange {
  /** The meal times sent with a value other than the current one. */
  changes: Partial<NotificationTimings>;
  /** Those of them that someone else changed after `baseVersion`: the request must be refused. */
  conflicts: MealSlot[];
}

/**
 * Sending a meal time's current value is no change (and no conflict, whoever set it). A new value
 * conflicts only when that meal time's own version moved past `baseVersion`, so an edit of
 * breakfast made on an old version still applies after someone else changed lunch; on no version,
 * only when that meal time no longer holds what the change was made on (`madeOn`, when sent).
 */
export function mealTimeChange(
  current: { notificationTimings: NotificationTimings; timingsVersions: TimingsVersions },
  sent: Partial<Record<MealSlot, string>>,
  baseVersion: number | undefined,
  madeOn?: Partial<Record<MealSlot, string>>,
): MealTimeChange {
  const changes: Partial<NotificationTimings> = {};
  const conflicts: MealSlot[] = [];
  for (const meal of MEAL_SLOTS) {
    const value = sent[meal];
    if (value === undefined || value === current.notificationTimings[meal]) continue;
    if (baseVersion !== undefined && (current.timingsVersions[meal] ?? 0) > baseVersion) conflicts.push(meal);
    // On no version (sent again after a heal), with the time it was made on: another change since is a conflict.
    const on = madeOn?.[meal];
    if (baseVersion === undefined && on !== undefined && on !== current.notificationTimings[meal]) conflicts.push(meal);
    changes[meal] = value;
  }
  return { changes, conflicts };
}

/** "lunch", "lunch and dinner", "breakfast, lunch and dinner". */
export function mealList(meals: readonly MealSlot[]): string {
  return meals.length <= 1 ? (meals[0] ?? '') : `${meals.slice(0, -1).join(', ')} and ${meals.at(-1) ?? ''}`;
}
