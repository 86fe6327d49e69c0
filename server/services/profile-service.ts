import { sql, eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { NotificationTimingsInput } from '../../schemas/user-profile.ts';
import { WEEKDAYS } from '../../schemas/user-profile.ts';
import { patients } from '../db/schema.ts';
import { badRequest, unauthorized } from '../http/errors.ts';
import { isRealDate } from '../lib/time.ts';
import { patientRepo, type PatientRow } from '../repositories/patients.ts';
import { pushTokenRepo } from '../repositories/push-tokens.ts';
import { sessionRepo } from '../repositories/sessions.ts';

export const PROFILE_MSG = {
  timings: 'Notification timings saved successfully',
  alertSaved: 'Glucometer alert saved successfully',
  alertRemoved: 'Glucometer alert removed successfully',
  tokenSaved: 'Notification token saved successfully',
  badDay: 'day must be a weekday (Monday to Sunday) or a date as YYYY-MM-DD',
} as const;

/**
 * Profiles exported by the older app call the alert days `glucometerReadingAlerts`; both names are
 * read, the new one wins when both are present.
 */
export function alertDaysOf(stored: { glucometerAlerts?: unknown; glucometerReadingAlerts?: unknown }): string[] {
  const days = Array.isArray(stored.glucometerAlerts) ? stored.glucometerAlerts : Array.isArray(stored.glucometerReadingAlerts) ? stored.glucometerReadingAlerts : [];
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
  const p: PatientRow = found.patient;
  const lastSync = await sessionRepo.lastSeenOfPatient(ctx.db, p.id);
  return {
    user: {
      _id: p.id,
      name: p.name,
      gender: p.gender,
      age: p.age,
      address: p.address,
      hospNum: p.hospNo,
      hospital: found.hospitalName,
      timeZone: p.timeZone,
      notificationTimings: p.notificationTimings,
      glucometerAlerts: alertDaysOf(p),
      mustChangePassword: p.mustChangePassword,
      lastSyncAt: lastSync?.lastSeenAt.toISOString() ?? null,
    },
  };
}

export async function saveTimings(ctx: AppContext, patientId: string, timings: NotificationTimingsInput) {
  await patientRepo.update(ctx.db, patientId, { notificationTimings: { breakfast: timings.breakfast, lunch: timings.lunch, dinner: timings.dinner } });
  return { message: PROFILE_MSG.timings };
}

/** Adds or removes one day in a single statement, so two devices editing at once lose nothing. */
export async function changeAlertDay(ctx: AppContext, patientId: string, rawDay: string, op: 'add' | 'remove') {
  const day = normaliseDay(rawDay);
  if (!day) throw badRequest(PROFILE_MSG.badDay);
  const expr =
    op === 'add'
      ? sql`case when ${patients.glucometerAlerts} ? ${day} then ${patients.glucometerAlerts} else ${patients.glucometerAlerts} || jsonb_build_array(${day}::text) end`
      : sql`${patients.glucometerAlerts} - ${day}::text`;
  const [row] = await ctx.db
    .update(patients)
    .set({ glucometerAlerts: expr, updatedAt: new Date() })
    .where(eq(patients.id, patientId))
    .returning({ glucometerAlerts: patients.glucometerAlerts });
  return { message: op === 'add' ? PROFILE_MSG.alertSaved : PROFILE_MSG.alertRemoved, glucometerAlerts: alertDaysOf(row ?? {}) };
}

type TokenInput = string | { endpoint: string; keys: { p256dh: string; auth: string } };

/** Stores a Web Push subscription (object or its JSON) or an FCM registration token. */
export async function saveNotificationToken(ctx: AppContext, patientId: string, token: TokenInput, deviceId: string | undefined) {
  let subscription: { endpoint: string; keys: { p256dh: string; auth: string } } | undefined;
  if (typeof token === 'object') subscription = token;
  else if (token.trim().startsWith('{')) {
    try {
      const parsed = JSON.parse(token) as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } };
      if (typeof parsed.endpoint === 'string' && typeof parsed.keys?.p256dh === 'string' && typeof parsed.keys.auth === 'string') {
        subscription = { endpoint: parsed.endpoint, keys: { p256dh: parsed.keys.p256dh, auth: parsed.keys.auth } };
      }
    } catch {
      // not JSON: treated as an FCM token below
    }
    if (!subscription) throw badRequest('token must be a push subscription with endpoint and keys, or a registration token');
  }
  if (subscription && !/^https:\/\//.test(subscription.endpoint)) throw badRequest('token.endpoint must be an https URL');
  await pushTokenRepo.upsert(ctx.db, {
    patientId,
    provider: subscription ? 'webpush' : 'fcm',
    token: subscription ? JSON.stringify({ endpoint: subscription.endpoint, keys: subscription.keys }) : String(token).trim(),
    deviceId: deviceId ?? null,
  });
  return { message: PROFILE_MSG.tokenSaved };
}
