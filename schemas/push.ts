// What the server pushes to a device (issue 6 contract), and what a browser needs to subscribe.
// The service worker ignores pushes that do not match (docs/requirements.md §5); the server's tests check every
// message it sends against these.
import type { FromSchema } from 'json-schema-to-ts';
import { isoDateTime } from './common.ts';
import { dose, medicineName, prescrNo } from './medicine.ts';
import { mealTime } from './user-profile.ts';

/** The buttons of a medicine reminder's notification. */
export const PUSH_ACTION_TAKEN = 'taken';
export const PUSH_ACTION_LATER = 'later';
export type PushAction = typeof PUSH_ACTION_TAKEN | typeof PUSH_ACTION_LATER;

const notification = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    body: { type: 'string' },
    tag: { type: 'string' },
    // Optional (added with the five languages): the buttons' titles in the device's language. A
    // worker without them, or an older server, uses its English "Mark as Taken" / "Remind Later".
    actions: {
      type: 'array',
      maxItems: 2,
      items: {
        type: 'object',
        properties: { action: { enum: [PUSH_ACTION_TAKEN, PUSH_ACTION_LATER] }, title: { type: 'string', minLength: 1, maxLength: 60 } },
        required: ['action', 'title'],
        additionalProperties: false,
      },
    },
  },
  required: ['title', 'body', 'tag'],
  additionalProperties: false,
} as const;

export const medicineReminderDataSchema = {
  type: 'object',
  properties: {
    type: { const: 'medicine' },
    prescrNo,
    medicineName,
    dose,
    time: mealTime,
    meal: { enum: ['breakfast', 'lunch', 'dinner'] },
    notificationTime: isoDateTime,
    snoozed: { const: true },
  },
  required: ['type', 'prescrNo', 'medicineName', 'dose', 'time', 'notificationTime'],
  additionalProperties: false,
} as const;

export const glucometerAlertDataSchema = {
  type: 'object',
  properties: { type: { const: 'glucometerAlert' }, time: mealTime, notificationTime: isoDateTime },
  required: ['type', 'time', 'notificationTime'],
  additionalProperties: false,
} as const;

/** A severe-low alert to a staff device (issue 18): whose reading (hospNo), its value and when measured. */
export const severeLowAlertDataSchema = {
  type: 'object',
  properties: {
    type: { const: 'severeLow' },
    hospNo: { type: 'string', minLength: 1, maxLength: 40 },
    valueMgDl: { type: 'number' },
    measuredAt: isoDateTime,
    notificationTime: isoDateTime,
  },
  required: ['type', 'hospNo', 'valueMgDl', 'measuredAt', 'notificationTime'],
  additionalProperties: false,
} as const;

/** The JSON text a Web Push message carries (encrypted end to end). */
export const pushMessageSchema = {
  $id: 'PushMessage',
  type: 'object',
  properties: { notification, data: { oneOf: [medicineReminderDataSchema, glucometerAlertDataSchema, severeLowAlertDataSchema] } },
  required: ['notification', 'data'],
  additionalProperties: false,
} as const;
export type PushMessageJson = FromSchema<typeof pushMessageSchema>;

/** `GET /api/push/config`. */
export const pushConfigSchema = {
  $id: 'PushConfig',
  oneOf: [
    {
      type: 'object',
      properties: { provider: { const: 'webpush' }, publicKey: { type: 'string' } },
      required: ['provider', 'publicKey'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        provider: { const: 'fcm' },
        publicKey: { type: 'string' },
        firebase: {
          type: 'object',
          properties: {
            apiKey: { type: 'string' },
            authDomain: { type: 'string' },
            projectId: { type: 'string' },
            messagingSenderId: { type: 'string' },
            appId: { type: 'string' },
          },
          required: ['apiKey', 'projectId', 'messagingSenderId', 'appId'],
        },
      },
      required: ['provider', 'publicKey', 'firebase'],
      additionalProperties: false,
    },
  ],
} as const;
export type PushConfigJson = FromSchema<typeof pushConfigSchema>;
/** The Firebase web app configuration a device needs to get an FCM registration token. */
export type FirebaseWebConfig = Extract<PushConfigJson, { provider: 'fcm' }>['firebase'];
/** The data part of a medicine push as the server sends it. */
export type MedicineReminderJson = FromSchema<typeof medicineReminderDataSchema>;
/** The data part of a glucometer-day push as the server sends it. */
export type GlucometerAlertJson = FromSchema<typeof glucometerAlertDataSchema>;
/** The data part of a severe-low alert as the server sends it. */
export type SevereLowAlertJson = FromSchema<typeof severeLowAlertDataSchema>;
