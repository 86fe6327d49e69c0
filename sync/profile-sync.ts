// Where the profile is synced: one document, pulled from GET /users/. Settings the patient changes
// (meal times, glucometer days) are sent by their own calls from the profile screen.
import type { UserProfile } from '../schemas/user-profile.ts';
import type { RestMapping } from './replication.ts';

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
  toOp: () => undefined,
};
