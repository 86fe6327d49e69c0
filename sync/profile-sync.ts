// Where the profile is synced: one document, pulled from GET /users/. The settings a patient
// changes on the device (meal times, glucometer days) are pushed as the calls of docs/requirements.md §7 that make
// the same difference on the server: one per meal time changed (only that field, with the version
// it was based on, so a care team's change of another meal time is merged, not overwritten) and
// one per glucometer day added or removed (set operations that never conflict).
// Name, age and the other identity fields belong to the hospital's record and are never pushed.
import type { Answer, profile } from '../schemas/api.ts';
import type { HospitalSettings, MealTimings, UserProfile } from '../schemas/user-profile.ts';
import { mutation } from '../schemas/mutations.ts';
import { baseOf, type OpDraft, type RestMapping } from './replication.ts';

export const PROFILE_DOC_ID = 'profile';

export type ProfileDoc = UserProfile & { _id: string };

const MEALS = ['breakfast', 'lunch', 'dinner'] as const;

export const profileMapping: RestMapping<ProfileDoc, Answer<typeof profile>> = {
  collection: 'profile',
  listPath: '/users/',
  versioned: false,
  // The row of a 409 (`current`), which the API sends as the list's `user` but types as any value.
  fromRecord: (user) => profileDocOf(user),
  fromList(json) {
    // An answer without its `user` (none the server's schema allows) brings nothing, as before.
    const doc = json.user ? profileDocOf(json.user) : undefined;
    return { docs: doc ? [doc] : [], deleted: [] };
  },
  toOp(doc, _isNew, previous) {
    if (doc._deleted) return undefined;
    const ops: OpDraft[] = [];
    const t = doc.notificationTimings;
    const before = previous?.notificationTimings;
    if (!before) {
      ops.push(mutation('profile.setMealTimes', { breakfast: t.breakfast, lunch: t.lunch, dinner: t.dinner }));
    } else {
      for (const meal of MEALS) {
        if (t[meal] === before[meal]) continue;
        ops.push(mutation('profile.setMealTime', { [meal]: t[meal], ...baseOf(previous), madeOn: { [meal]: before[meal] } }));
      }
    }
    const had = new Set(previous?.glucometerAlerts ?? []);
    const has = new Set(doc.glucometerAlerts);
    for (const day of has) if (!had.has(day)) ops.push(mutation('profile.addGlucometerDay', { day }));
    for (const day of had) if (!has.has(day)) ops.push(mutation('profile.removeGlucometerDay', { day }));
    return ops;
  },
};

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const isMealTimings = (v: unknown): v is MealTimings =>
  typeof v === 'object' &&
  v !== null &&
  'breakfast' in v &&
  typeof v.breakfast === 'string' &&
  'lunch' in v &&
  typeof v.lunch === 'string' &&
  'dinner' in v &&
  typeof v.dinner === 'string';
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The hospital's settings as the server sends them; undefined when they are missing or malformed (an older server). */
function hospitalSettingsOf(v: unknown): HospitalSettings | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const s: Record<string, unknown> = { ...v };
  const identifierSystem = s['identifierSystem'];
  const urgentHighMgDl = s['urgentHighMgDl'];
  const careContact = s['careContact'];
  if (typeof identifierSystem !== 'string' || typeof urgentHighMgDl !== 'number' || !Number.isFinite(urgentHighMgDl)) return undefined;
  return { identifierSystem, urgentHighMgDl, careContact: typeof careContact === 'string' ? careContact : null };
}

/**
 * The profile document of the server's `user` (GET /users/, or a 409's `current`): only the fields
 * of the profile schema, since the server adds ids and sync times the device keeps elsewhere; none
 * without its meal times.
 */
function profileDocOf(u: Record<string, unknown>): ProfileDoc | undefined {
  const timings = u['notificationTimings'];
  if (!isMealTimings(timings)) return undefined;
  const days = u['glucometerAlerts'] ?? u['glucometerReadingAlerts'];
  const age = u['age'];
  const version = u['version'];
  const hospitalSettings = hospitalSettingsOf(u['hospitalSettings']);
  return {
    _id: PROFILE_DOC_ID,
    name: text(u['name']) ?? '',
    hospNum: text(u['hospNum']) ?? '',
    gender: text(u['gender']) ?? null,
    age: typeof age === 'number' ? age : null,
    address: text(u['address']) ?? null,
    hospital: text(u['hospital']) ?? '',
    timeZone: text(u['timeZone']) ?? 'UTC',
    notificationTimings: { breakfast: timings.breakfast, lunch: timings.lunch, dinner: timings.dinner },
    glucometerAlerts: isTextList(days) ? days : [],
    mustChangePassword: u['mustChangePassword'] === true,
    ...(hospitalSettings ? { hospitalSettings } : {}),
    ...(typeof version === 'number' ? { version } : {}),
  };
}
