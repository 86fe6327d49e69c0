import type { FromSchema } from 'json-schema-to-ts';
import { baseVersion, madeAt, hospNo, mutationId, NOT_BLANK, syncVersion } from './common.ts';
import { DEFAULT_ADVICE_LEVELS, URGENT_HIGH_RANGE } from './judgement.ts';

export const mealTime = {
  type: 'string',
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'a time in 24-hour HH:MM format',
} as const;

/** The three meal times as a profile holds them. */
export const mealTimingsSchema = {
  type: 'object',
  properties: { breakfast: mealTime, lunch: mealTime, dinner: mealTime },
  required: ['breakfast', 'lunch', 'dinner'],
} as const;
export type MealTimings = FromSchema<typeof mealTimingsSchema>;

/** Some of the meal times (at least one): what a partial change sends. */
export const mealTimingsPatchSchema = {
  type: 'object',
  properties: { breakfast: mealTime, lunch: mealTime, dinner: mealTime },
  anyOf: [{ required: ['breakfast'] }, { required: ['lunch'] }, { required: ['dinner'] }],
  description: 'at least one of breakfast, lunch or dinner',
} as const;

/**
 * `POST /users/notificationTimings`: the meal times to change (the spec's payload sends all three).
 * Each meal time is merged on its own; with `baseVersion` (the profile version the edit was made
 * on) a meal time that someone else changed since to another value is a conflict (409).
 */
/**
 * What a meal-time change was made on: those meal times as the device held them. Read only when the
 * change goes on no version, sent again after a heal (docs/sync-protocol.md, "What a write sent
 * again was made on").
 */
export const mealTimesMadeOnSchema = {
  type: 'object',
  properties: { breakfast: mealTime, lunch: mealTime, dinner: mealTime },
  additionalProperties: false,
} as const;

export const notificationTimingsSchema = {
  type: 'object',
  properties: { breakfast: mealTime, lunch: mealTime, dinner: mealTime, baseVersion, madeAt, madeOn: mealTimesMadeOnSchema, mutationId },
  anyOf: mealTimingsPatchSchema.anyOf,
  description: mealTimingsPatchSchema.description,
} as const;
export type NotificationTimingsInput = FromSchema<typeof notificationTimingsSchema>;

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/**
 * A glucometer alert day: a weekday (every week) or one calendar date. Weekday names are accepted
 * in any letter case and stored capitalised.
 */
export const glucometerDay = {
  type: 'string',
  pattern: '^([A-Za-z]{6,9}|[0-9]{4}-[0-9]{2}-[0-9]{2})$',
  maxLength: 10,
  description: 'a weekday (Monday to Sunday) or a date as YYYY-MM-DD',
} as const;

export const glucometerAlertSchema = {
  type: 'object',
  properties: { day: glucometerDay, mutationId },
  required: ['day'],
} as const;

/**
 * The settings of the patient's hospital that the device needs (the staff area's Manage page sets
 * them, server/services/admin/hospitals.ts): the namespace of its hospital numbers in exported
 * records (FHIR `Patient.identifier.system`), the level from which a high reading's advice says to
 * contact the care team now (mg/dL), and how patients reach the care team (shown in the advice).
 */
export const hospitalSettingsSchema = {
  type: 'object',
  properties: {
    identifierSystem: { type: 'string' },
    urgentHighMgDl: { type: 'number' },
    careContact: { type: ['string', 'null'] },
  },
  required: ['identifierSystem', 'urgentHighMgDl', 'careContact'],
  additionalProperties: false,
} as const;
export type HospitalSettings = FromSchema<typeof hospitalSettingsSchema>;

/** What the advice after a reading uses of the hospital's settings. */
export interface AdviceSettings {
  urgentHighMgDl: number;
  /** Shown as it was typed; null when the hospital set none. */
  careContact: string | null;
}

/**
 * The advice settings of a profile, with the defaults of schemas/judgement.ts for a profile
 * stored before it carried them (or a level outside what a hospital may set, which the server never
 * sends): advice is never withheld for want of a setting.
 */
export function adviceSettingsOf(profile: { hospitalSettings?: Partial<HospitalSettings> | null | undefined } | null | undefined): AdviceSettings {
  const s = profile?.hospitalSettings;
  const level = s?.urgentHighMgDl;
  const usable = typeof level === 'number' && level >= URGENT_HIGH_RANGE.min && level <= URGENT_HIGH_RANGE.max;
  const contact = typeof s?.careContact === 'string' ? s.careContact.trim() : '';
  return { urgentHighMgDl: usable ? level : DEFAULT_ADVICE_LEVELS.urgentHighMgDl, careContact: contact === '' ? null : contact };
}

export const userProfileSchema = {
  $id: 'UserProfile',
  type: 'object',
  properties: {
    name: { type: 'string' },
    gender: { type: ['string', 'null'] },
    age: { type: ['integer', 'null'] },
    address: { type: ['string', 'null'] },
    hospNum: hospNo,
    hospital: { type: 'string' },
    timeZone: { type: 'string' },
    notificationTimings: mealTimingsSchema,
    glucometerAlerts: { type: 'array', items: { type: 'string' } },
    mustChangePassword: { type: 'boolean' },
    /** Optional: profiles stored, and answers documented, before it existed stay valid. */
    hospitalSettings: hospitalSettingsSchema,
    /** The profile's version: the `baseVersion` of a meal-time edit made on it. */
    version: syncVersion,
  },
  required: ['name', 'hospNum', 'notificationTimings', 'glucometerAlerts'],
  additionalProperties: false,
} as const;
export type UserProfile = FromSchema<typeof userProfileSchema>;

export const notificationTokenSchema = {
  type: 'object',
  properties: {
    token: {
      anyOf: [
        { type: 'string', minLength: 1, maxLength: 4096, pattern: NOT_BLANK },
        {
          type: 'object',
          properties: {
            endpoint: { type: 'string', format: 'uri', maxLength: 2048 },
            keys: {
              type: 'object',
              properties: { p256dh: { type: 'string', maxLength: 200 }, auth: { type: 'string', maxLength: 100 } },
              required: ['p256dh', 'auth'],
            },
          },
          required: ['endpoint', 'keys'],
        },
      ],
    },
    /** The device's IANA time zone: reminders follow the patient's clock when they travel. */
    timeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'an IANA time zone (for example Europe/Madrid)' },
    /** The app's language on this device: its notifications are worded in it. */
    locale: { type: 'string', maxLength: 35, pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$', description: 'a language code such as "en" or "es"' },
    mutationId,
  },
  required: ['token'],
} as const;
export type NotificationTokenInput = FromSchema<typeof notificationTokenSchema>;

/** Turning reminders off on a device: its subscription's endpoint (Web Push) or its FCM token. */
export const notificationTokenRemoveSchema = {
  type: 'object',
  properties: {
    endpoint: { type: 'string', minLength: 1, maxLength: 2048 },
    token: { type: 'string', minLength: 1, maxLength: 4096 },
    mutationId,
  },
} as const;
export type NotificationTokenRemove = FromSchema<typeof notificationTokenRemoveSchema>;
