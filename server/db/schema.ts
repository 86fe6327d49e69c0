// One pg-core schema for both PGlite (embedded) and PostgreSQL. Migrations in ./migrations are
// generated from this file with `npm run db:generate` and applied at start-up.
//
// Patient records are soft-deleted (`deletedAt`) so that `?since=` delta pulls can tell a device
// which ids disappeared; `updatedAt` moves on every change and is what a delta pull compares.
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ReminderPayload } from '../reminders/plan.ts';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull().defaultNow();
const updatedAt = () => tstz('updated_at').notNull().defaultNow();

export type NotificationTimings = { breakfast: string; lunch: string; dinner: string };

export const hospitalGroups = pgTable('hospital_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  createdAt: createdAt(),
});

export const hospitals = pgTable('hospitals', {
  id: uuid('id').primaryKey().defaultRandom(),
  groupId: uuid('group_id').references(() => hospitalGroups.id),
  name: text('name').notNull().unique(),
  timeZone: text('time_zone').notNull().default('UTC'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const admins = pgTable('admins', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const adminHospitals = pgTable(
  'admin_hospitals',
  {
    adminId: uuid('admin_id').notNull().references(() => admins.id, { onDelete: 'cascade' }),
    hospitalId: uuid('hospital_id').notNull().references(() => hospitals.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.hospitalId] })],
);

export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hospNo: text('hosp_no').notNull().unique(),
    hospitalId: uuid('hospital_id').notNull().references(() => hospitals.id),
    name: text('name').notNull(),
    gender: text('gender'),
    age: integer('age'),
    address: text('address'),
    timeZone: text('time_zone').notNull().default('UTC'),
    notificationTimings: jsonb('notification_timings').$type<NotificationTimings>().notNull()
      .default({ breakfast: '08:00', lunch: '13:00', dinner: '20:00' }),
    glucometerAlerts: jsonb('glucometer_alerts').$type<string[]>().notNull().default([]),
    passwordHash: text('password_hash'),
    // Set when staff issued a temporary password: the patient should choose their own.
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('patients_hospital_idx').on(t.hospitalId)],
);

export const accessKeys = pgTable('access_keys', {
  id: uuid('id').primaryKey().defaultRandom(),
  patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash').notNull().unique(),
  expiresAt: tstz('expires_at').notNull(),
  revokedAt: tstz('revoked_at'),
  createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const doctorTokens = pgTable('doctor_tokens', {
  id: uuid('id').primaryKey().defaultRandom(),
  tokenHash: text('token_hash').notNull().unique(),
  doctorName: text('doctor_name').notNull(),
  hospitalIds: jsonb('hospital_ids').$type<string[]>().notNull(),
  expiresAt: tstz('expires_at').notNull(),
  revokedAt: tstz('revoked_at'),
  createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

// Patient and admin bearer tokens. Only the SHA-256 of the random token is stored.
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    kind: text('kind', { enum: ['patient', 'admin'] }).notNull(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    adminId: uuid('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    deviceId: text('device_id'),
    expiresAt: tstz('expires_at').notNull(),
    revokedAt: tstz('revoked_at'),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_patient_idx').on(t.patientId)],
);

// One-time codes. Rows exist for unknown hospital numbers too (patientId null, never mailed) so
// that the send throttle answers the same for known and unknown numbers.
export const otps = pgTable(
  'otps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hospNo: text('hosp_no').notNull(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('otps_hosp_no_idx').on(t.hospNo, t.createdAt)],
);

export const glucoseReadings = pgTable(
  'glucose_readings',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['Fasting', 'Postprandial', 'Random'] }).notNull(),
    valueMgDl: doublePrecision('value_mg_dl').notNull(),
    recordedAt: tstz('recorded_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('glucose_patient_recorded_idx').on(t.patientId, t.recordedAt),
    index('glucose_patient_updated_idx').on(t.patientId, t.updatedAt),
  ],
);

export const symptoms = pgTable(
  'symptoms',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    symptom: text('symptom').notNull(),
    // The calendar day of recordedAt in the patient's time zone: one report per symptom per day.
    day: date('day', { mode: 'string' }).notNull(),
    recordedAt: tstz('recorded_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    uniqueIndex('symptoms_one_per_day_idx')
      .on(t.patientId, sql`lower(${t.symptom})`, t.day)
      .where(sql`${t.deletedAt} is null`),
    index('symptoms_patient_updated_idx').on(t.patientId, t.updatedAt),
  ],
);

export const prescriptions = pgTable(
  'prescriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    prescrNo: text('prescr_no').notNull(),
    name: text('name').notNull(),
    dose: text('dose').notNull(),
    startDate: date('start_date', { mode: 'string' }),
    // Last day the medicine is taken (inclusive, patient's time zone). Null: no end.
    endDate: date('end_date', { mode: 'string' }),
    createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('prescriptions_patient_no_idx').on(t.patientId, t.prescrNo)],
);

export const medicineIntakes = pgTable(
  'medicine_intakes',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    prescriptionId: uuid('prescription_id').references(() => prescriptions.id, { onDelete: 'set null' }),
    prescrNo: text('prescr_no').notNull(),
    medicineName: text('medicine_name').notNull(),
    dose: text('dose').notNull(),
    takenAt: tstz('taken_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('intakes_patient_taken_idx').on(t.patientId, t.takenAt)],
);

export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    doctor: text('doctor').notNull(),
    date: tstz('date').notNull(),
    notes: text('notes').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [index('appointments_patient_updated_idx').on(t.patientId, t.updatedAt)],
);

export const labTests = pgTable(
  'lab_tests',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: doublePrecision('value').notNull(),
    unit: text('unit'),
    recordedAt: tstz('recorded_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [index('lab_tests_patient_updated_idx').on(t.patientId, t.updatedAt)],
);

export const symptomReference = pgTable('symptom_reference', {
  name: text('name').primaryKey(),
});

export const labTestReference = pgTable('lab_test_reference', {
  name: text('name').primaryKey(),
  unit: text('unit'),
  loinc: text('loinc'),
});

// Web Push subscriptions (JSON) or FCM registration tokens, one row per device token.
export const pushTokens = pgTable(
  'push_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['webpush', 'fcm'] }).notNull(),
    token: text('token').notNull().unique(),
    deviceId: text('device_id'),
    // The device's app language ("en", "es"): the notifications sent to it are worded in it.
    locale: text('locale'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('push_tokens_patient_idx').on(t.patientId)],
);

export type ReminderKind = 'medicine' | 'glucometerAlert';
export type ReminderStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'expired';

/**
 * One reminder to one patient (sent to each of their devices). Planning inserts a row per
 * occurrence, and the unique (patient, dedupe key) makes every instance that plans the same
 * occurrence agree on one row; sending claims rows with FOR UPDATE SKIP LOCKED, so a row is sent by
 * exactly one instance. `payload` is the push message's data part (what the device receives),
 * worded into each device's language only when sent.
 */
export const reminderJobs = pgTable(
  'reminder_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id').notNull().references(() => patients.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['medicine', 'glucometerAlert'] }).$type<ReminderKind>().notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    dueAt: tstz('due_at').notNull(),
    payload: jsonb('payload').$type<ReminderPayload>().notNull(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'expired'] }).$type<ReminderStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: tstz('claimed_at'),
    sentAt: tstz('sent_at'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reminder_jobs_patient_dedupe_idx').on(t.patientId, t.dedupeKey),
    // The claim and expiry queries only ever look at the small set of unsent rows.
    index('reminder_jobs_pending_due_idx').on(t.dueAt).where(sql`${t.status} = 'pending'`),
    index('reminder_jobs_sending_claimed_idx').on(t.claimedAt).where(sql`${t.status} = 'sending'`),
    index('reminder_jobs_due_idx').on(t.dueAt),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: tstz('at').notNull().defaultNow(),
    actorKind: text('actor_kind', { enum: ['admin', 'doctor'] }).notNull(),
    actorId: uuid('actor_id').notNull(),
    actorLabel: text('actor_label').notNull(),
    patientId: uuid('patient_id').references(() => patients.id, { onDelete: 'set null' }),
    hospNo: text('hosp_no').notNull(),
    action: text('action').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('audit_patient_at_idx').on(t.patientId, t.at), index('audit_at_idx').on(t.at)],
);

// Proof of cookie consent (spec §3 consent record): what was chosen, where and when, by which request.
// Consent is given before login, so a record names no patient; the client address is kept only as
// an HMAC under a server secret (see consent-service.ts), enough to tell the same device's records
// apart, not to recover the address.
export const consentRecords = pgTable(
  'consent_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    domain: text('domain').notNull(),
    preferences: jsonb('preferences').$type<Record<string, boolean>>().notNull(),
    metadata: jsonb('metadata').$type<Record<string, string | number | boolean | null>>(),
    givenAt: tstz('given_at').notNull().defaultNow(),
    requestId: text('request_id'),
    addressHash: text('address_hash'),
  },
  (t) => [index('consent_records_address_idx').on(t.addressHash, t.domain, t.type, t.givenAt)],
);

// Fixed-window rate-limit counters shared by every server instance.
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: tstz('reset_at').notNull(),
});

export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});
