// One pg-core schema for both PGlite (embedded) and PostgreSQL. Migrations in ./migrations are
// generated from this file with `npm run db:generate` and applied at start-up.
//
// Patient records are soft-deleted (`deletedAt`) so that delta pulls can tell a device which ids
// disappeared. Every synced row carries `version`, stamped by a database trigger from the patient's
// row in `sync_counters` (migration 0004, docs/sync-protocol.md): a pull by version never misses a
// commit. `updatedAt` still moves on every change for the older `?since=<ISO>` pulls.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { SEVERE_LOW_LEVEL, URGENT_HIGH_LEVEL } from '../../schemas/admin.ts';
import { UTC_OFFSET_MAX_MINUTES, UTC_OFFSET_MIN_MINUTES } from '../../schemas/glucose.ts';
import type { ReminderPayload } from '../reminders/plan.ts';
import type { SevereLowPayload } from '../reminders/severe-low.ts';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tstz('created_at').notNull().defaultNow();
const updatedAt = () => tstz('updated_at').notNull().defaultNow();
/**
 * Set by the `*_version` triggers on every insert and update (the value written by the application
 * is overwritten), so every write path stamps it. A number is exact here: versions count writes of
 * one patient and stay far below 2^53.
 */
const version = () => bigint('version', { mode: 'number' }).notNull().default(0);

export type NotificationTimings = { breakfast: string; lunch: string; dinner: string };
/** The patient row's version at which each meal time last changed (absent: before versions existed). */
export type TimingsVersions = Partial<Record<keyof NotificationTimings, number>>;

export const hospitalGroups = pgTable('hospital_groups', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  createdAt: createdAt(),
});

export const hospitals = pgTable(
  'hospitals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: uuid('group_id').references(() => hospitalGroups.id),
    name: text('name').notNull().unique(),
    timeZone: text('time_zone').notNull().default('UTC'),
    /**
     * A reading below this (mg/dL) alerts the hospital's staff who turned alerts on (issue 18): the
     * consensus level 2 hypoglycaemia threshold by default, 40–70 where a hospital's protocol says so.
     */
    severeLowMgDl: doublePrecision('severe_low_mg_dl').notNull().default(SEVERE_LOW_LEVEL.default),
    /**
     * The namespace (a URI, e.g. the hospital's OID as urn:oid:…) of its hospital numbers, which the
     * FHIR export writes as Patient.identifier.system; null: urn:uuid:<id> (unique and stable).
     */
    identifierSystem: text('identifier_system'),
    /** The level (mg/dL) from which a high reading's advice says to contact the care team now. */
    urgentHighMgDl: doublePrecision('urgent_high_mg_dl').notNull().default(URGENT_HIGH_LEVEL.default),
    /** How patients reach the care team, in the hospital's words ("the diabetes nurse on 020 7946 0000"). */
    careContact: text('care_contact'),
    /** Every admin of this hospital signs in with a second factor (issue 48): set up at their next login. */
    requireStaffMfa: boolean('require_staff_mfa').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('hospitals_severe_low_range', sql`${t.severeLowMgDl} between 40 and 70`),
    check('hospitals_urgent_high_range', sql`${t.urgentHighMgDl} between 300 and 500`),
  ],
);

export const admins = pgTable('admins', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  passwordHash: text('password_hash').notNull(),
  // A hospital group's administrator (issue 48): may add hospitals. A hospital's admin (false) manages
  // the hospitals granted to them and nothing across them.
  groupAdmin: boolean('group_admin').notNull().default(false),
  /**
   * The second factor (issue 48): a TOTP secret (RFC 6238, base32). Set when a setup starts; it signs
   * nobody in until a code from it has been given once (totpEnabledAt). totpLastStep is the time
   * step of the last code accepted: a code is good once.
   */
  totpSecret: text('totp_secret'),
  totpEnabledAt: tstz('totp_enabled_at'),
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** An admin's recovery codes (issue 48): each signs in once in place of the authenticator's code; stored as SHA-256 hashes. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('admin_recovery_codes_admin_idx').on(t.adminId)],
);

/**
 * Which admin a person of an identity provider is (issue 48): linked by the provider's subject, never
 * re-linked by a changed e-mail address.
 */
export const staffIdentities = pgTable(
  'staff_identities',
  {
    providerId: text('provider_id').notNull(),
    subject: text('subject').notNull(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.subject] }), index('staff_identities_admin_idx').on(t.adminId)],
);

/**
 * A sign-in through an identity provider under way (issue 48): started with a state, a nonce and a
 * PKCE verifier, bound to the browser that started it (a cookie's hash); once the provider answered,
 * who signed in, waiting for the page to redeem its one-time handoff code. Only hashes of the state,
 * the cookie and the handoff code are kept; a row lives minutes.
 */
export const oidcLogins = pgTable(
  'oidc_logins',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: text('provider_id').notNull(),
    stateHash: text('state_hash').notNull().unique(),
    browserHash: text('browser_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    handoffHash: text('handoff_hash').unique(),
    /** Who signed in: an admin's id, or a doctor's name and hospitals. */
    outcome: jsonb('outcome').$type<{ role: 'admin'; adminId: string } | { role: 'doctor'; name: string; hospitalIds: string[] }>(),
    expiresAt: tstz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('oidc_logins_expires_idx').on(t.expiresAt)],
);

export const adminHospitals = pgTable(
  'admin_hospitals',
  {
    adminId: uuid('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.adminId, t.hospitalId] })],
);

export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    hospNo: text('hosp_no').notNull().unique(),
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    name: text('name').notNull(),
    gender: text('gender'),
    age: integer('age'),
    address: text('address'),
    timeZone: text('time_zone').notNull().default('UTC'),
    notificationTimings: jsonb('notification_timings').$type<NotificationTimings>().notNull().default({ breakfast: '08:00', lunch: '13:00', dinner: '20:00' }),
    glucometerAlerts: jsonb('glucometer_alerts').$type<string[]>().notNull().default([]),
    // Maintained by the patients trigger: a meal time's entry moves only when its value changes, so
    // a stale edit of one meal time can be told apart from a concurrent edit of another.
    timingsVersions: jsonb('timings_versions').$type<TimingsVersions>().notNull().default({}),
    version: version(),
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
  patientId: uuid('patient_id')
    .notNull()
    .references(() => patients.id, { onDelete: 'cascade' }),
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
  /**
   * A doctor who signed in through the hospital's identity provider (issue 48): the provider's id
   * (OIDC_PROVIDERS). Such a token is that doctor's session: it ends at logout, unlike a link.
   */
  providerId: text('provider_id'),
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
    // Sessions opened with an access key never outlive that key, however often they are renewed.
    accessKeyExpiresAt: tstz('access_key_expires_at'),
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
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['Fasting', 'Postprandial', 'Random'] }).notNull(),
    valueMgDl: doublePrecision('value_mg_dl').notNull(),
    /** The unit the reading was typed in and the number as typed (null for readings from before). */
    enteredUnit: text('entered_unit', { enum: ['mg/dL', 'mmol/L'] }),
    enteredValue: doublePrecision('entered_value'),
    recordedAt: tstz('recorded_at').notNull(),
    /** The recording device's UTC offset then (minutes east of UTC); null when its client did not send it. */
    utcOffsetMinutes: smallint('utc_offset_minutes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('glucose_patient_recorded_idx').on(t.patientId, t.recordedAt),
    index('glucose_patient_updated_idx').on(t.patientId, t.updatedAt),
    index('glucose_patient_version_idx').on(t.patientId, t.version),
    check(
      'glucose_utc_offset_range',
      sql`${t.utcOffsetMinutes} between ${sql.raw(String(UTC_OFFSET_MIN_MINUTES))} and ${sql.raw(String(UTC_OFFSET_MAX_MINUTES))}`,
    ),
  ],
);

export const symptoms = pgTable(
  'symptoms',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    symptom: text('symptom').notNull(),
    // The calendar day of recordedAt in the patient's time zone: one report per symptom per day.
    day: date('day', { mode: 'string' }).notNull(),
    recordedAt: tstz('recorded_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    uniqueIndex('symptoms_one_per_day_idx')
      .on(t.patientId, sql`lower(${t.symptom})`, t.day)
      .where(sql`${t.deletedAt} is null`),
    index('symptoms_patient_updated_idx').on(t.patientId, t.updatedAt),
    index('symptoms_patient_version_idx').on(t.patientId, t.version),
  ],
);

export const prescriptions = pgTable(
  'prescriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    prescrNo: text('prescr_no').notNull(),
    name: text('name').notNull(),
    dose: text('dose').notNull(),
    startDate: date('start_date', { mode: 'string' }),
    // Last day the medicine is taken (inclusive, patient's time zone). Null: no end.
    endDate: date('end_date', { mode: 'string' }),
    createdBy: uuid('created_by').references(() => admins.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
  },
  (t) => [uniqueIndex('prescriptions_patient_no_idx').on(t.patientId, t.prescrNo), index('prescriptions_patient_version_idx').on(t.patientId, t.version)],
);

export const medicineIntakes = pgTable(
  'medicine_intakes',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    prescriptionId: uuid('prescription_id').references(() => prescriptions.id, { onDelete: 'set null' }),
    prescrNo: text('prescr_no').notNull(),
    medicineName: text('medicine_name').notNull(),
    dose: text('dose').notNull(),
    takenAt: tstz('taken_at').notNull(),
    // The meal the dose belongs to and the patient-local day of takenAt. Null only on doses recorded
    // before slots existed, which the one-per-slot rule therefore does not see.
    slot: text('slot', { enum: ['breakfast', 'lunch', 'dinner'] }),
    day: date('day', { mode: 'string' }),
    // A dose the patient said was an extra one: outside the one-per-slot rule.
    extra: boolean('extra').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [
    index('intakes_patient_taken_idx').on(t.patientId, t.takenAt),
    index('intakes_patient_version_idx').on(t.patientId, t.version),
    // One dose per prescription, day and meal: a second tap (or a second device) cannot record two.
    uniqueIndex('intakes_one_per_slot_idx')
      .on(t.patientId, t.prescrNo, t.day, t.slot)
      .where(sql`${t.slot} is not null and not ${t.extra} and ${t.deletedAt} is null`),
  ],
);

export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    doctor: text('doctor').notNull(),
    date: tstz('date').notNull(),
    notes: text('notes').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [index('appointments_patient_updated_idx').on(t.patientId, t.updatedAt), index('appointments_patient_version_idx').on(t.patientId, t.version)],
);

export const labTests = pgTable(
  'lab_tests',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: doublePrecision('value').notNull(),
    unit: text('unit'),
    recordedAt: tstz('recorded_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: version(),
    deletedAt: tstz('deleted_at'),
  },
  (t) => [index('lab_tests_patient_updated_idx').on(t.patientId, t.updatedAt), index('lab_tests_patient_version_idx').on(t.patientId, t.version)],
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
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
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

/**
 * A staff member's device that turned severe-low alerts on (issue 18): a Web Push subscription (JSON)
 * or an FCM token, owned by an admin or by a doctor token, never both. The hospitals it hears about
 * are the owner's at the moment of sending, so a hospital taken away or a doctor token revoked or
 * expired stops the alerts at once; deleting the owner deletes the device.
 */
export const staffPushSubscriptions = pgTable(
  'staff_push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    doctorTokenId: uuid('doctor_token_id').references(() => doctorTokens.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['webpush', 'fcm'] }).notNull(),
    token: text('token').notNull().unique(),
    locale: text('locale'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('staff_push_admin_idx').on(t.adminId),
    index('staff_push_doctor_idx').on(t.doctorTokenId),
    check('staff_push_one_owner', sql`(${t.adminId} is null) <> (${t.doctorTokenId} is null)`),
  ],
);

/**
 * What a reminder job of each kind keeps in `payload`: a reminder's push data (the planner writes
 * it, reminders/plan.ts), or the low reading an alert is about (migration 0007's trigger writes it).
 */
export interface ReminderJobPayloads {
  medicine: ReminderPayload;
  glucometerAlert: ReminderPayload;
  severeLow: SevereLowPayload;
}
export type ReminderKind = keyof ReminderJobPayloads;
/** A job's kind with the payload it keeps: a check of `kind` narrows `payload`. */
export type ReminderKindAndPayload = { [K in ReminderKind]: { kind: K; payload: ReminderJobPayloads[K] } }[ReminderKind];
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
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['medicine', 'glucometerAlert', 'severeLow'] })
      .$type<ReminderKind>()
      .notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    dueAt: tstz('due_at').notNull(),
    // Drizzle types each column on its own: the pairing with `kind` is ReminderJobRow's (repositories/reminder-jobs.ts).
    payload: jsonb('payload').$type<ReminderKindAndPayload['payload']>().notNull(),
    status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'expired'] })
      .$type<ReminderStatus>()
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    claimedAt: tstz('claimed_at'),
    sentAt: tstz('sent_at'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reminder_jobs_patient_dedupe_idx').on(t.patientId, t.dedupeKey),
    // The claim and expiry queries only ever look at the small set of unsent rows.
    index('reminder_jobs_pending_due_idx')
      .on(t.dueAt)
      .where(sql`${t.status} = 'pending'`),
    index('reminder_jobs_sending_claimed_idx')
      .on(t.claimedAt)
      .where(sql`${t.status} = 'sending'`),
    index('reminder_jobs_due_idx').on(t.dueAt),
    // The severe-low trigger's "none in the last hour" look-up (migration 0007).
    index('reminder_jobs_severe_low_idx')
      .on(t.patientId, t.dueAt)
      .where(sql`${t.kind} = 'severeLow'`),
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

// Proof of cookie consent (docs/requirements.md §3 consent record): what was chosen, where and when, by which request.
// Consent is given before login, so a record names no patient; the client address is kept only as
// an HMAC under a server secret (see consent-service.ts), enough to tell the same device's records
// apart, not to recover the address. subject_id is the id c15t 2.x makes up on the device (sub_…),
// the same for every choice made there; records from c15t 1.x have none.
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
    subjectId: text('subject_id'),
  },
  (t) => [
    index('consent_records_address_idx').on(t.addressHash, t.domain, t.type, t.givenAt),
    index('consent_records_subject_idx').on(t.subjectId, t.domain, t.type, t.givenAt),
  ],
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

/**
 * The last version handed out per patient. No foreign key: the patients trigger takes the new
 * patient's first version before that patient's row exists. See `eddy_next_version` in migration
 * 0004 for why this row makes versions safe against commit order.
 */
export const syncCounters = pgTable('sync_counters', {
  patientId: uuid('patient_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

/**
 * Mutation ids a patient's devices sent, with the first answer (docs/sync-protocol.md): written in
 * the same transaction as the change, so a mutation is applied at most once and a repeat is
 * answered exactly as the first time. Kept 90 days (housekeeping).
 */
export const appliedMutations = pgTable(
  'applied_mutations',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    mutationId: text('mutation_id').notNull(),
    status: integer('status').notNull(),
    /** The answer's JSON body, an object (`{}` while the claim's transaction runs). */
    response: jsonb('response').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.mutationId] }), index('applied_mutations_created_idx').on(t.createdAt)],
);

/**
 * Marks of a patient's history (docs/sync-protocol.md, "A restored server"): a random id the server
 * hands a device after each sync, committed after everything that device had sent or pulled. A
 * database restored from a backup taken before a mark lacks that mark, and so tells the device its
 * history went back. Kept 90 days (housekeeping): a device away longer heals once, harmlessly.
 */
export const historyMarks = pgTable(
  'history_marks',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('history_marks_created_idx').on(t.createdAt)],
);

/**
 * When the write a record (or a meal time) now holds was made, by the device's clock (never later
 * than the server's), per patient: `glucose:<id>`, `meal:breakfast`, … (server/services/record-made.ts).
 * Two devices that heal a restored server each send again what they wrote, in the order they come
 * back: a write sent again on no version is applied only when it was made after the one the record
 * holds, so the patient's last change stays whichever device heals last (docs/sync-protocol.md).
 */
export const recordMade = pgTable(
  'record_made',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    record: text('record').notNull(),
    madeAt: tstz('made_at').notNull(),
    /** The device whose write the record holds (its mutation id's prefix); null for staff and writes without one. */
    device: text('device'),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.record] })],
);
