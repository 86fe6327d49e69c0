// Where the profile is synced: one document, pulled from GET /users/. The settings a patient
// changes on the device (meal times, glucometer days) are pushed as the calls of spec §7 that make
// the same difference on the server: one for the timings, one per glucometer day added or removed.
// Name, age and the other identity fields belong to the hospital's record and are never pushed.
import type { UserProfile } from '../schemas/user-profile.ts';
import type { OpDraft, RestMapping } from './replication.ts';

export const PROFILE_DOC_ID = 'profile';

export type ProfileDoc = UserProfile & { _id: string };

export const profileMapping: RestMapping<ProfileDoc> = {
  collection: 'profile',
  listPath: '/users/',
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
    };
    return { docs: [doc], deleted: [] };
  },
  toOp(doc, _isNew, previous) {
    if (doc._deleted) return undefined;
    const ops: OpDraft[] = [];
    const t = doc.notificationTimings;
    const before = previous?.notificationTimings;
    if (!before || t.breakfast !== before.breakfast || t.lunch !== before.lunch || t.dinner !== before.dinner) {
      ops.push({ kind: 'update', path: '/users/notificationTimings', body: { breakfast: t.breakfast, lunch: t.lunch, dinner: t.dinner } });
    }
    const had = new Set(previous?.glucometerAlerts ?? []);
    const has = new Set(doc.glucometerAlerts);
    for (const day of has) if (!had.has(day)) ops.push({ kind: 'add', path: '/users/glucometerAlerts', body: { day } });
    for (const day of had) if (!has.has(day)) ops.push({ kind: 'delete', path: '/users/glucometerAlerts/remove', body: { day } });
    return ops;
  },
};
