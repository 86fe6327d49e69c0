import type { AppContext } from '../context.ts';
import type { NotificationTimings } from '../db/schema.ts';
import { MEAL_SLOTS, type MealSlot } from '../../schemas/dose-slot.ts';
import type { NotificationTimingsInput, NotificationTokenInput, NotificationTokenRemove } from '../../schemas/user-profile.ts';
import { WEEKDAYS } from '../../schemas/user-profile.ts';
import { badRequest, conflict, unauthorized } from '../http/errors.ts';
import { canonicalTimeZone, isRealDate } from '../lib/time.ts';
import { endpointPolicyOf } from '../config.ts';
import { endpointProblem, type EndpointPolicy } from '../push/endpoint-policy.ts';
import { parseSubscription } from '../push/web-push-sender.ts';
import { patientRepo, type PatientRow } from '../repositories/patients.ts';
import type { HospitalRow } from '../repositories/staff.ts';
import { pushTokenRepo } from '../repositories/push-tokens.ts';
import { sessionRepo } from '../repositories/sessions.ts';
import { hospitalDto } from './dto.ts';
import { mealList, mealTimeChange } from './meal-times.ts';
import { baseUnknown, baseUnknownConflict } from './record-conflicts.ts';
import { holdsOwnChange, noteChange, supersededConflict, type MadeChange } from './record-made.ts';

export const PROFILE_MSG = {
  timings: 'Notification timings saved successfully',
  alertSaved: 'Glucometer alert saved successfully',
  alertRemoved: 'Glucometer alert removed successfully',
  tokenSaved: 'Notification token saved successfully',
  tokenRemoved: 'Notification token removed',
  removeWhat: 'endpoint (of a push subscription) or token is required',
  badTimeZone: 'timeZone must be an IANA time zone such as Europe/London or Asia/Kolkata',
  badDay: 'day must be a weekday (Monday to Sunday) or a date as YYYY-MM-DD',
  timingsConflict: (fields: readonly MealSlot[]) =>
    `Your ${mealList(fields)} time${fields.length === 1 ? ' was' : 's were'} changed by your care team or on another device.`,
} as const;

/**
 * Profiles exported by the older app call the alert days `glucometerReadingAlerts`; both names are
 * read, the new one wins when both are present.
 */
export function alertDaysOf(stored: { glucometerAlerts?: unknown; glucometerReadingAlerts?: unknown }): string[] {
  const days = Array.isArray(stored.glucometerAlerts)
    ? stored.glucometerAlerts
    : Array.isArray(stored.glucometerReadingAlerts)
      ? stored.glucometerReadingAlerts
      : [];
  const out: string[] = [];
  for (const d of days) {
    const n = typeof d === 'string' ? normaliseDay(d) : undefined;
    if (n && !out.includes(n)) out.push(n);
  }
  return out;
}

/** "monday" → "Monday"; "2026-11-30" stays; anything else is not a day. */
export function normaliseDay(day: string): string | undefined {
  const trimmed = day.trim();
  const weekday = WEEKDAYS.find((w) => w.toLowerCase() === trimmed.toLowerCase());
  if (weekday) return weekday;
  return /^\d{4}-\d{2}-\d{2}$/.test(trimmed) && isRealDate(trimmed) ? trimmed : undefined;
}

export async function profile(ctx: AppContext, patientId: string) {
  const found = await patientRepo.withHospital(ctx.db, patientId);
  if (!found) throw unauthorized();
  return { user: await profileUserDto(ctx, found.patient, found.hospital) };
}

/**
 * The `user` of GET /users/: the profile as the device holds it, with its version, and the settings
 * of the patient's hospital the device needs (its advice levels and contact, its identifier system
 * for exported records), as the staff area's hospital list gives them.
 */
async function profileUserDto(ctx: AppContext, p: PatientRow, hospital: HospitalRow) {
  const { identifierSystem, urgentHighMgDl, careContact } = hospitalDto(hospital);
  const lastSync = await sessionRepo.lastSeenOfPatient(ctx.db, p.id);
  return {
    _id: p.id,
    name: p.name,
    gender: p.gender,
    age: p.age,
    address: p.address,
    hospNum: p.hospNo,
    hospital: hospital.name,
    timeZone: p.timeZone,
    notificationTimings: p.notificationTimings,
    glucometerAlerts: alertDaysOf(p),
    mustChangePassword: p.mustChangePassword,
    hospitalSettings: { identifierSystem, urgentHighMgDl, careContact },
    lastSyncAt: lastSync?.lastSeenAt.toISOString() ?? null,
    version: p.version,
  };
}

/**
 * Changes the meal times sent, each on its own (docs/sync-protocol.md, "profile: meal times"). With
 * `baseVersion`, a meal time sent with a new value whose own version moved past `baseVersion`
 * (someone else changed it since the device's edit was made) is a conflict: 409 with the profile as
 * it is and the conflicting `fields`, and nothing is changed. Meal times nobody else changed are
 * merged, so staff changing lunch while the patient's breakfast edit waits lose nothing.
 */
export async function saveTimings(ctx: AppContext, patientId: string, input: NotificationTimingsInput) {
  const current = await patientRepo.lock(ctx.db, patientId);
  if (!current) throw unauthorized();
  const { changes, conflicts } = mealTimeChange(current, input, input.baseVersion, await madeOnOthers(ctx, patientId, input));
  const currentDto = async () => {
    const found = await patientRepo.withHospital(ctx.db, patientId);
    return found ? await profileUserDto(ctx, found.patient, found.hospital) : null;
  };
  // A base the profile never had: the device's history is newer than this (restored) server's.
  if (baseUnknown(input.baseVersion, current)) throw baseUnknownConflict(await currentDto());
  if (conflicts.length > 0) throw conflict(PROFILE_MSG.timingsConflict(conflicts), { current: await currentDto(), fields: conflicts });
  // Each meal time notes when its change was made; one sent again on no version after a heal, made
  // before the change that meal time holds, is left out (services/record-made.ts), and a request
  // left with nothing to change is refused as superseded.
  const superseded = await mealTimesSuperseded(ctx, patientId, changes, input);
  if (superseded.length > 0 && Object.keys(changes).length === 0) throw supersededConflict();
  // Sending the times the profile already has changes nothing, and takes no new version.
  const row = Object.keys(changes).length > 0 ? await patientRepo.update(ctx.db, patientId, {}, changes) : current;
  if (!row) throw unauthorized();
  return { message: PROFILE_MSG.timings, notificationTimings: row.notificationTimings, version: row.version };
}

/**
 * What the meal times sent on no version were made on, less those whose current time this same
 * device set (holdsOwnChange): only another's change in between is a conflict.
 */
async function madeOnOthers(ctx: AppContext, patientId: string, input: NotificationTimingsInput): Promise<NotificationTimingsInput['madeOn']> {
  const madeOn = input.madeOn;
  if (madeOn === undefined) return undefined;
  const kept: Partial<Record<MealSlot, string>> = {};
  for (const meal of MEAL_SLOTS) {
    const on = madeOn[meal];
    if (on !== undefined && !(await holdsOwnChange(ctx.db, patientId, `meal:${meal}`, input))) kept[meal] = on;
  }
  return kept;
}

/** Notes each changed meal time (noteChange); those that hold a later change leave `changes`, and are returned. */
async function mealTimesSuperseded(ctx: AppContext, patientId: string, changes: Partial<NotificationTimings>, input: MadeChange): Promise<MealSlot[]> {
  const superseded: MealSlot[] = [];
  for (const meal of MEAL_SLOTS) {
    if (changes[meal] === undefined || (await noteChange(ctx.db, patientId, `meal:${meal}`, input))) continue;
    delete changes[meal];
    superseded.push(meal);
  }
  return superseded;
}

/** Adds or removes one day; the two operations commute, so they never conflict. */
export async function changeAlertDay(ctx: AppContext, patientId: string, rawDay: string, op: 'add' | 'remove') {
  const day = normaliseDay(rawDay);
  if (!day) throw badRequest(PROFILE_MSG.badDay);
  const row = await patientRepo.changeAlertDay(ctx.db, patientId, day, op);
  if (!row) throw unauthorized();
  return { message: op === 'add' ? PROFILE_MSG.alertSaved : PROFILE_MSG.alertRemoved, glucometerAlerts: alertDaysOf(row), version: row.version };
}

/** Why a subscription cannot be used, or undefined when it can. */
function subscriptionProblem(sub: { endpoint: string; keys: { p256dh: string; auth: string } }, policy: EndpointPolicy): string | undefined {
  const endpoint = endpointProblem(sub.endpoint, policy);
  if (endpoint) return endpoint;
  const key = Buffer.from(sub.keys.p256dh, 'base64url');
  // An uncompressed P-256 point: 0x04, then 32 bytes of x and 32 of y.
  if (!/^[A-Za-z0-9_-]+=*$/.test(sub.keys.p256dh) || key.length !== 65 || key[0] !== 4)
    return "token.keys.p256dh must be the subscription's P-256 public key (base64url)";
  if (!/^[A-Za-z0-9_-]+=*$/.test(sub.keys.auth) || Buffer.from(sub.keys.auth, 'base64url').length !== 16)
    return "token.keys.auth must be the subscription's 16-byte auth secret (base64url)";
  return undefined;
}

type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };

/** The subscription in a token given as an object or as its JSON text; undefined for an FCM token. */
function subscriptionOf(token: NotificationTokenInput['token']): Subscription | undefined {
  if (typeof token === 'object') return { endpoint: token.endpoint, keys: { p256dh: token.keys.p256dh, auth: token.keys.auth } };
  if (!token.trim().startsWith('{')) return undefined;
  const parsed = parseSubscription(token);
  if (!parsed) throw badRequest('token must be a push subscription with endpoint and keys, or a registration token');
  return parsed;
}

/** A device token as stored: a subscription's JSON (checked against the endpoint policy) or an FCM token. */
export function storedToken(ctx: AppContext, token: NotificationTokenInput['token']): { provider: 'webpush' | 'fcm'; token: string } {
  const subscription = subscriptionOf(token);
  if (!subscription) return { provider: 'fcm', token: String(token).trim() };
  const problem = subscriptionProblem(subscription, endpointPolicyOf(ctx.config));
  if (problem) throw badRequest(problem);
  return { provider: 'webpush', token: JSON.stringify(subscription) };
}

/** The stored tokens of `own` that a removal names: by its endpoint (Web Push) or as the FCM token. */
export function tokensNamed(own: readonly { token: string }[], input: NotificationTokenRemove): string[] {
  const endpoint = input.endpoint ?? (input.token?.trim().startsWith('{') ? parseSubscription(input.token)?.endpoint : undefined);
  if (endpoint) return own.filter((t) => parseSubscription(t.token)?.endpoint === endpoint).map((t) => t.token);
  if (input.token?.trim()) return [input.token.trim()];
  throw badRequest(PROFILE_MSG.removeWhat);
}

/**
 * Stores a Web Push subscription (object or its JSON) or an FCM registration token, with the
 * device's language. A valid device time zone becomes the patient's: reminders follow their clock.
 */
export async function saveNotificationToken(ctx: AppContext, patientId: string, input: NotificationTokenInput, deviceId: string | undefined) {
  const device = storedToken(ctx, input.token);
  let timeZone: string | undefined;
  if (input.timeZone !== undefined) {
    timeZone = canonicalTimeZone(input.timeZone.trim());
    if (!timeZone) throw badRequest(PROFILE_MSG.badTimeZone);
  }
  await pushTokenRepo.upsert(ctx.db, {
    patientId,
    ...device,
    deviceId: deviceId ?? null,
    locale: input.locale ?? null,
  });
  if (timeZone) {
    const current = await patientRepo.byId(ctx.db, patientId);
    if (current && current.timeZone !== timeZone) await patientRepo.update(ctx.db, patientId, { timeZone });
  }
  return { message: PROFILE_MSG.tokenSaved };
}

/** The patient turned reminders off on a device: forget its subscription (only their own). */
export async function removeNotificationToken(ctx: AppContext, patientId: string, input: NotificationTokenRemove) {
  const own = input.endpoint || input.token?.trim().startsWith('{') ? await pushTokenRepo.ownWebPushTokens(ctx.db, patientId) : [];
  await pushTokenRepo.removeOwn(ctx.db, patientId, tokensNamed(own, input));
  return { message: PROFILE_MSG.tokenRemoved };
}
