// The device's database: RxDB on IndexedDB (Dexie), every patient field sealed with the data key.
// A logout the patient confirms, or another patient logging in on this device, calls destroyEddyDatabase,
// which removes the data and the key; a 401 only locks the app (sync/parking.ts, docs/architecture.md §4).
import {
  addRxPlugin,
  createRxDatabase,
  isRxDatabase,
  removeRxDatabase,
  wrappedValidateStorageFactory,
  type RxCollection,
  type RxDatabase,
  type RxJsonSchema,
  type RxStorage,
  type RxValidationError,
} from 'rxdb';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { getRxStorageDexieBulkRead } from './dexie-bulk-read.ts';
import { destroyDataKey, getDataKey } from './crypto.ts';
import {
  COLLECTION_SCHEMA_VERSION,
  eddyCollectionSchemas,
  type Appointment,
  type GlucoseReading,
  type LabTest,
  type LabTestReferenceDoc,
  type Medicine,
  type MedicineIntake,
  type PendingMedicine,
  type ProfileDoc,
  type Symptom,
  type SymptomReferenceDoc,
} from './collections.ts';
import { wrappedAesGcmStorage } from './encrypted-storage.ts';
import { deliverCrossTabMessagesWhateverTheClock } from './cross-tab.ts';
import { deleteLeftoverIndexedDbs } from './leftovers.ts';
import { rememberWriteTimes, startWriteClockPast, type WriteClockStore } from './write-clock.ts';

export const DEFAULT_DATABASE_NAME = 'eddy';

export interface EddyCollections {
  glucose: RxCollection<GlucoseReading>;
  symptoms: RxCollection<Symptom>;
  symptomReference: RxCollection<SymptomReferenceDoc>;
  medicines: RxCollection<Medicine>;
  medicineIntakes: RxCollection<MedicineIntake>;
  pendingMedicines: RxCollection<PendingMedicine>;
  appointments: RxCollection<Appointment>;
  labTests: RxCollection<LabTest>;
  labTestReference: RxCollection<LabTestReferenceDoc>;
  profile: RxCollection<ProfileDoc>;
}
export type EddyDatabase = RxDatabase<EddyCollections>;

// RxDB's own types use `any` for a storage's internals and options; `unknown` accepts every storage
// here without widening our code to `any`.
type AnyRxStorage = RxStorage<unknown, unknown>;

export interface OpenEddyDatabaseOptions {
  name?: string;
  /** The storage under the encryption (default: Dexie on IndexedDB). Encryption is not optional. */
  storage?: AnyRxStorage;
  /** Where the highest write time is kept (default: localStorage where there is one; see write-clock.ts). */
  writeClock?: WriteClockStore;
}

let devCheckedStorage: Promise<(storage: AnyRxStorage) => AnyRxStorage> | undefined;

/**
 * In development RxDB's dev-mode checks schemas and queries, and it insists on a schema validator
 * at the top of the storage. That validator sees documents before encryption, so what is checked is
 * the patient data itself, with the options the server's Ajv uses (formats, the `unit` keyword).
 * Imported dynamically so neither lands in the production bundle.
 */
function withDevChecks(): Promise<(storage: AnyRxStorage) => AnyRxStorage> {
  devCheckedStorage ??= (async () => {
    const [{ RxDBDevModePlugin, disableWarnings }, { Ajv }, formats] = await Promise.all([
      import('rxdb/plugins/dev-mode'),
      import('ajv'),
      import('ajv-formats'),
    ]);
    disableWarnings();
    addRxPlugin(RxDBDevModePlugin);
    const ajv = new Ajv({ strict: false, allErrors: true, keywords: ['unit'], addUsedSchema: false });
    // ajv-formats is CommonJS and its exports object is the plugin itself, which also carries itself
    // as `default`: so `default.default` is the plugin under Node's loader and bundlers alike.
    formats.default.default(ajv);
    const validate = wrappedValidateStorageFactory((schema: RxJsonSchema<unknown>) => {
      const check = ajv.compile(schema);
      // Ajv's own details, with the field and message RxDB's error type names.
      return (doc): RxValidationError[] =>
        check(doc) ? [] : (check.errors ?? []).map((e) => ({ ...e, field: e.instancePath || '/', message: e.message ?? e.keyword }));
    }, 'eddy-ajv');
    return (storage: AnyRxStorage) => validate({ storage });
  })();
  return devCheckedStorage;
}

function encryptedStorage(base: AnyRxStorage | undefined, getKey: () => Promise<CryptoKey>): AnyRxStorage {
  return wrappedAesGcmStorage({ storage: base ?? getRxStorageDexieBulkRead(), getKey });
}

const openByName = new Map<string, Promise<EddyDatabase>>();

addRxPlugin(RxDBMigrationSchemaPlugin);
/** Every schema version so far only added optional fields: older documents stay as they are. */
export const migrationStrategies = Object.fromEntries(Array.from({ length: COLLECTION_SCHEMA_VERSION }, (_, i) => [i + 1, (doc: unknown) => doc]));

/**
 * Opens (or creates) the database. Callers asking for the same name while it is open share one
 * instance: RxDB refuses a second one, and a React effect that runs twice would otherwise fail.
 */
export function openEddyDatabase(opts: OpenEddyDatabaseOptions = {}): Promise<EddyDatabase> {
  const name = opts.name ?? DEFAULT_DATABASE_NAME;
  let opening = openByName.get(name);
  if (!opening) {
    opening = createEddyDatabase(name, opts.storage, opts.writeClock ?? (typeof localStorage === 'undefined' ? undefined : localStorage));
    openByName.set(name, opening);
    opening.then(
      (db) => db.onClose.push(() => openByName.delete(name)),
      () => openByName.delete(name),
    );
  }
  return opening;
}

async function createEddyDatabase(name: string, base: AnyRxStorage | undefined, writeClock: WriteClockStore | undefined): Promise<EddyDatabase> {
  if (writeClock) startWriteClockPast(writeClock);
  deliverCrossTabMessagesWhateverTheClock();
  let storage = encryptedStorage(base, getDataKey);
  if (import.meta.env?.DEV) storage = (await withDevChecks())(storage);
  const db = await createRxDatabase<EddyCollections>({
    name,
    storage,
    multiInstance: true,
    // Counts over encrypted fields cannot use an index; the collections are small enough.
    allowSlowCount: true,
  });
  try {
    await db.addCollections({
      glucose: { schema: eddyCollectionSchemas.glucose, migrationStrategies },
      symptoms: { schema: eddyCollectionSchemas.symptoms, migrationStrategies },
      symptomReference: { schema: eddyCollectionSchemas.symptomReference, migrationStrategies },
      medicines: { schema: eddyCollectionSchemas.medicines, migrationStrategies },
      medicineIntakes: { schema: eddyCollectionSchemas.medicineIntakes, migrationStrategies },
      pendingMedicines: { schema: eddyCollectionSchemas.pendingMedicines, migrationStrategies },
      appointments: { schema: eddyCollectionSchemas.appointments, migrationStrategies },
      labTests: { schema: eddyCollectionSchemas.labTests, migrationStrategies },
      labTestReference: { schema: eddyCollectionSchemas.labTestReference, migrationStrategies },
      profile: { schema: eddyCollectionSchemas.profile, migrationStrategies },
    });
  } catch (err) {
    await db.close();
    throw err;
  }
  if (writeClock) {
    const remembering = rememberWriteTimes(db.eventBulks$, writeClock);
    db.onClose.push(() => remembering.unsubscribe());
  }
  return db;
}

/**
 * Logout and 401: removes the local database and destroys the data key. Takes the database, or its
 * name when the caller has no instance at hand (e.g. a 401 during start-up); an instance this tab
 * has open is then closed and removed. The key is destroyed even if removing the data fails, which
 * leaves any remainder unreadable.
 */
export async function destroyEddyDatabase(target: EddyDatabase | OpenEddyDatabaseOptions = {}): Promise<void> {
  const failures: unknown[] = [];
  const options = isRxDatabase(target) ? undefined : target;
  const name = options ? (options.name ?? DEFAULT_DATABASE_NAME) : (target as EddyDatabase).name;
  const db = options ? await openByName.get(name)?.catch(() => undefined) : (target as EddyDatabase);
  if (db) {
    await db.remove().catch((err: unknown) => failures.push(err));
  } else {
    // Removing needs no key; refusing one makes sure removal never creates a fresh key.
    const storage = encryptedStorage(options?.storage, () => Promise.reject(new Error('no key is needed to remove the database')));
    await removeRxDatabase(name, storage, true).catch((err: unknown) => failures.push(err));
  }
  await deleteLeftoverIndexedDbs(name).catch((err: unknown) => failures.push(err));
  await destroyDataKey();
  if (failures.length > 0) throw new AggregateError(failures, 'the local database was not fully removed (the key is destroyed)');
}
