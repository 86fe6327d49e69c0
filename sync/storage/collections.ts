// The local collections, one per entity of docs/requirements.md §3. Fields come from the JSON Schemas in schemas/
// (the ones the server validates with), so a field the server accepts is a field stored here.
//
// Encryption is the default: every field is listed in `encrypted` except the primary key, the one
// timestamp a collection is indexed and sorted by, `updatedAt` (server clock) and `version` (the
// server's change counter the replication pulls by). A field added to an entity schema later is therefore encrypted without
// anyone having to remember it.
//
// There is no sync-state collection: the replication keeps its checkpoints in RxDB's own
// replication meta storage, whose copies of documents the encrypted storage seals as well.
import type { FromSchema } from 'json-schema-to-ts';
import type { RxJsonSchema } from 'rxdb';
import { appointmentSchema, type Appointment } from '../../schemas/appointment.ts';
import { uuid } from '../../schemas/common.ts';
import { glucoseReadingSchema, type GlucoseReading } from '../../schemas/glucose.ts';
import { labTestReferenceSchema, labTestSchema, type LabTest } from '../../schemas/lab-test.ts';
import { dose, medicineIntakeSchema, medicineName, medicineSchema, prescrNo, type Medicine, type MedicineIntake } from '../../schemas/medicine.ts';
import { symptomName, symptomSchema, type Symptom } from '../../schemas/symptom.ts';
import { userProfileSchema } from '../../schemas/user-profile.ts';

/** RxDB needs a maxLength on the primary key; ids made by the server and the device are UUIDs. */
const recordId = { ...uuid, maxLength: 36 } as const;
/** Ids of reference entries and of the profile are chosen by the code that writes them. */
const localId = { type: 'string', minLength: 1, maxLength: 128 } as const;
/** Position in the server's list, so the reference lists keep the server's order. */
const position = { type: 'integer', minimum: 0 } as const;

/** docs/requirements.md §5: the code that stores a pending medicine truncates these fields to these lengths. */
export const PENDING_MEDICINE_LIMITS = { prescrNo: 20, name: 100, dose: 20, userId: 20 } as const;
/** docs/requirements.md §9: a pending medicine reminder expires 2 hours after it arrived. */
export const PENDING_MEDICINE_TTL_MS = 2 * 60 * 60 * 1000;

/** A medicine reminder from a push, waiting to be marked as taken (docs/requirements.md §3, §4). */
export const pendingMedicineSchema = {
  type: 'object',
  properties: {
    _id: localId,
    /** The dose time the reminder is about, as the push sent it. */
    time: { type: 'string', minLength: 1, maxLength: 40 },
    prescrNo: { ...prescrNo, maxLength: PENDING_MEDICINE_LIMITS.prescrNo },
    name: { ...medicineName, maxLength: PENDING_MEDICINE_LIMITS.name },
    dose: { ...dose, maxLength: PENDING_MEDICINE_LIMITS.dose },
    userId: { type: 'string', minLength: 1, maxLength: PENDING_MEDICINE_LIMITS.userId },
    /** When the reminder arrived on the device, ms since the epoch. */
    timestamp: { type: 'integer', minimum: 0, maximum: 8.64e15 },
    /** When the notification was due, as the push sent it. */
    notificationTime: { type: 'string', maxLength: 40 },
    /** timestamp + PENDING_MEDICINE_TTL_MS; indexed (hence multipleOf and bounds) to purge without decrypting. */
    expiry: { type: 'integer', minimum: 0, maximum: 8.64e15, multipleOf: 1 },
  },
  required: ['_id', 'time', 'prescrNo', 'name', 'dose', 'userId', 'timestamp', 'expiry'],
  additionalProperties: false,
} as const;
export type PendingMedicine = FromSchema<typeof pendingMedicineSchema>;

// The reference lists hold names the hospital offers, not patient data, but they are sealed too so
// that a scan of the device for a patient's symptom or test name finds nothing at all. For the same
// reason their ids should be opaque (e.g. `ref-<position>`), not the name.
export const symptomReferenceSchema = {
  type: 'object',
  properties: { _id: localId, name: symptomName, position },
  required: ['_id', 'name'],
  additionalProperties: false,
} as const;
export type SymptomReferenceDoc = FromSchema<typeof symptomReferenceSchema>;

export const labTestReferenceDocSchema = {
  type: 'object',
  properties: { _id: localId, ...labTestReferenceSchema.properties, position },
  required: ['_id', ...labTestReferenceSchema.required],
  additionalProperties: false,
} as const;
export type LabTestReferenceDoc = FromSchema<typeof labTestReferenceDocSchema>;

/** The id of the one profile document. */
export const PROFILE_ID = 'profile';
export const profileDocSchema = {
  type: 'object',
  properties: { _id: localId, ...userProfileSchema.properties },
  required: ['_id', ...userProfileSchema.required],
  additionalProperties: false,
} as const;
export type ProfileDoc = FromSchema<typeof profileDocSchema>;

export type { Appointment, GlucoseReading, LabTest, Medicine, MedicineIntake, Symptom };

/** Readable in storage although not indexed: the server's timestamp and version (no patient data). */
const ALWAYS_PLAIN = new Set(['_id', 'updatedAt', 'version']);

/**
 * The collections' schema version. 1: documents carry the server's `version` (and doses their
 * meal slot); 2: glucose readings carry the unit and value as typed; 3: the profile carries its
 * hospital's settings (`hospitalSettings`, optional: a profile without them gets the defaults,
 * schemas/user-profile.ts adviceSettingsOf, until the next pull brings them); 4: glucose readings
 * carry the device's UTC offset when they were taken. Documents of an older version are valid as
 * they are (see migrationStrategies in database.ts).
 */
export const COLLECTION_SCHEMA_VERSION = 4;

interface EntitySchema {
  readonly properties: Readonly<Record<string, object>>;
  readonly required?: readonly string[];
}

function collectionSchema<Doc>(title: string, entity: EntitySchema, opts: { id: object; indexes?: readonly string[] }): RxJsonSchema<Doc> {
  const indexes = opts.indexes ?? [];
  const properties: Record<string, object> = { ...entity.properties, _id: opts.id };
  const required = [...new Set(['_id', ...(entity.required ?? [])])];
  // IndexedDB leaves a row out of a compound index when one of its fields is missing, so a query
  // served by that index would silently skip the row. Indexed fields must therefore be required.
  for (const field of indexes) {
    if (!required.includes(field)) throw new Error(`${title}: indexed field "${field}" must be required`);
  }
  const plain = new Set([...ALWAYS_PLAIN, ...indexes]);
  const schema = {
    title,
    version: COLLECTION_SCHEMA_VERSION,
    primaryKey: '_id',
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    indexes: [...indexes],
    encrypted: Object.keys(properties).filter((field) => !plain.has(field)),
  };
  // Built from the entity's JSON schema in schemas/, the one its type Doc is derived from; RxDB's
  // schema type spells out Doc's keys, which an object built from that schema cannot be shown to.
  // eslint-disable-next-line no-restricted-syntax -- the schema and the type come from the same JSON schema
  return schema as unknown as RxJsonSchema<Doc>;
}

export const glucoseCollectionSchema = collectionSchema<GlucoseReading>('glucose', glucoseReadingSchema, {
  id: recordId,
  indexes: ['recordedAt'],
});
export const symptomCollectionSchema = collectionSchema<Symptom>('symptoms', symptomSchema, { id: recordId, indexes: ['recordedAt'] });
export const symptomReferenceCollectionSchema = collectionSchema<SymptomReferenceDoc>('symptom reference list', symptomReferenceSchema, {
  id: localId,
});
export const medicineCollectionSchema = collectionSchema<Medicine>('medicines', medicineSchema, { id: recordId });
export const medicineIntakeCollectionSchema = collectionSchema<MedicineIntake>('medicine intakes', medicineIntakeSchema, {
  id: recordId,
  indexes: ['takenAt'],
});
export const pendingMedicineCollectionSchema = collectionSchema<PendingMedicine>('pending medicines', pendingMedicineSchema, {
  id: localId,
  indexes: ['expiry'],
});
export const appointmentCollectionSchema = collectionSchema<Appointment>('appointments', appointmentSchema, { id: recordId, indexes: ['date'] });
export const labTestCollectionSchema = collectionSchema<LabTest>('lab tests', labTestSchema, { id: recordId, indexes: ['recordedAt'] });
export const labTestReferenceCollectionSchema = collectionSchema<LabTestReferenceDoc>('lab test reference list', labTestReferenceDocSchema, {
  id: localId,
});
export const profileCollectionSchema = collectionSchema<ProfileDoc>('profile', profileDocSchema, { id: localId });

/** Every collection of the database, by collection name. */
export const eddyCollectionSchemas = {
  glucose: glucoseCollectionSchema,
  symptoms: symptomCollectionSchema,
  symptomReference: symptomReferenceCollectionSchema,
  medicines: medicineCollectionSchema,
  medicineIntakes: medicineIntakeCollectionSchema,
  pendingMedicines: pendingMedicineCollectionSchema,
  appointments: appointmentCollectionSchema,
  labTests: labTestCollectionSchema,
  labTestReference: labTestReferenceCollectionSchema,
  profile: profileCollectionSchema,
} as const;
