import type { ProfileDocument } from './use-profile.ts';

// The list is changed from the newest stored version (incrementalModify), not from what the screen
// last rendered: a pull or another tab may have changed it meanwhile, and a patch built from the
// rendered list would silently undo that change. Sync turns the difference into one call per day.

export async function addGlucometerDay(profile: ProfileDocument, day: string): Promise<void> {
  await profile.incrementalModify((data) => (data.glucometerAlerts.includes(day) ? data : { ...data, glucometerAlerts: [...data.glucometerAlerts, day] }));
}

export async function removeGlucometerDay(profile: ProfileDocument, day: string): Promise<void> {
  await profile.incrementalModify((data) => ({ ...data, glucometerAlerts: data.glucometerAlerts.filter((d) => d !== day) }));
}
