// Where the profile is synced: one document, pulled from GET /users/. The settings a patient
// changes on the device (meal times, glucometer days) are pushed as the calls of docs/requirements.md §7 that make
// the same difference on the server: one per meal time changed (only that field, with the version
// it was based on, so a care team's change of another meal time is merged, not overwritten) and
// one per glucometer day added or removed (set operations that never conflict).
// Name, age and the other identity fields belong to the hospital's record and are never pushed.
import type { UserProfile } from '../schemas/user-profile.ts';
import { baseOf, type OpDraft, type RestMapping } from './replication.ts';

export const PROFILE_DOC_ID = 'profile';

export type ProfileDoc = UserProfile & { _id: string };

const MEALS = ['breakfast', 'lunch', 'dinner'] as const;
const MEAL_MUTATION = { breakfast: 'profile.setBreakfast', lunch: 'profile.setLunch', dinner: 'profile.setDinner' } as const;

export const profileMapping: RestMapping<ProfileDoc> = {
  collection: 'profile',
  listPath: '/users/',
  versioned: false,
  fromRecord: (user) => profileMapping.fromList({ user }).docs[0],
  fromList(json) {
    const u = (json as { user?: Record<string, unknown> }).user;
    if (!u) return { docs: [], deleted: [] };
    // Only the fields of the profile schema: the server adds ids and sync times the device keeps elsewhere.
    const doc: ProfileDoc = {
      _id: PROFILE_DOC_ID,
      name: String(u['name'] ?? ''),
      hospNum: String(u['hospNum'] ?? ''),
      gender: (u['gender'] as string | null | undefined) ?? null,
      age: (u['age'] as number | null | undefined) ?? null,
      address: (u['address'] as string | null | undefined) ?? null,
      hospital: String(u['hospital'] ?? ''),
      timeZone: String(u['timeZone'] ?? 'UTC'),
      notificationTimings: u['notificationTimings'] as UserProfile['notificationTimings'],
      glucometerAlerts: (u['glucometerAlerts'] ?? u['glucometerReadingAlerts'] ?? []) as string[],
      mustChangePassword: Boolean(u['mustChangePassword']),
      ...(typeof u['version'] === 'number' ? { version: u['version'] } : {}),
    };
    return { docs: [doc], deleted: [] };
  },
  toOp(doc, _isNew, previous) {
    if (doc._deleted) return undefined;
    const ops: OpDraft[] = [];
    const t = doc.notificationTimings;
    const before = previous?.notificationTimings;
    if (!before) {
      ops.push({ kind: 'update', name: 'profile.setMealTimes', path: '/users/notificationTimings', body: { breakfast: t.breakfast, lunch: t.lunch, dinner: t.dinner }, versioned: true });
    } else {
      for (const meal of MEALS) {
        if (t[meal] === before[meal]) continue;
        ops.push({ kind: 'update', name: MEAL_MUTATION[meal], path: '/users/notificationTimings', body: { [meal]: t[meal], ...baseOf(previous) }, versioned: true });
      }
    }
    const had = new Set(previous?.glucometerAlerts ?? []);
    const has = new Set(doc.glucometerAlerts);
    for (const day of has) if (!had.has(day)) ops.push({ kind: 'add', name: 'profile.addGlucometerDay', path: '/users/glucometerAlerts', body: { day } });
    for (const day of had) if (!has.has(day)) ops.push({ kind: 'delete', name: 'profile.removeGlucometerDay', path: '/users/glucometerAlerts/remove', body: { day } });
    return ops;
  },
};
