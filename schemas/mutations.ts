// Every write a patient's device makes, named once for both sides (docs/sync-protocol.md, "Named
// mutations"). Each names its REST path (docs/requirements.md §7, as the spec fixes it), its body's
// schema, whether it states the version it was made on and what it may conflict with. The device
// builds its outbox entries from here (`mutation`: a wrong field is a compile error), the server
// registers and dispatches its patient writes by these names (server/routes/patient-writes.ts,
// profile.ts, medicines.ts), and the batch's paths and the writes that say when they were made are
// derived from it.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { appointmentAddSchema, appointmentDeleteSchema, appointmentUpdateSchema } from './appointment.ts';
import { glucoseAddSchema, glucoseDeleteSchema, glucoseUpdateSchema } from './glucose.ts';
import { labTestAddSchema, labTestDeleteSchema, labTestUpdateSchema } from './lab-test.ts';
import { medicineTakenDeleteSchema, medicineTakenSchema, remindLaterSchema } from './medicine.ts';
import { symptomAddSchema, symptomRemoveSchema } from './symptom.ts';
import { glucometerAlertSchema, notificationTimingsSchema, notificationTokenSchema } from './user-profile.ts';

interface MutationSpec {
  /** POST /api<path>. */
  readonly path: string;
  readonly kind: 'add' | 'update' | 'delete';
  /** The body's JSON Schema, the route's own (with `mutationId`). */
  readonly body: { readonly type: 'object'; readonly properties: Readonly<Record<string, unknown>> };
  /**
   * The body states `baseVersion`, the record's version it was made on: the server refuses it (409)
   * when the record changed since (`conflicts`), and the device sends it on its own last applied
   * write of the record when that is newer (sync/drain.ts).
   */
  readonly versioned: boolean;
  /**
   * Stated on no version even when the device has applied a write of the record before (the first
   * meal times a device sets: a whole set, which conflicts with nothing).
   */
  readonly wholeSet?: true;
  /**
   * What a change in between makes a conflict of: another change of the same record, or of the
   * same field only (meal times merge one by one); `none`: it never conflicts (an add, a set
   * operation).
   */
  readonly conflicts: 'record' | 'field' | 'none';
  /** May be sent in a batch (POST /api/batch): the records a patient makes most offline. */
  readonly batch: boolean;
}

export const MUTATIONS = {
  'glucose.add': { path: '/glucose/add', kind: 'add', body: glucoseAddSchema, versioned: false, conflicts: 'none', batch: true },
  'glucose.update': { path: '/glucose/update', kind: 'update', body: glucoseUpdateSchema, versioned: true, conflicts: 'record', batch: true },
  'glucose.delete': { path: '/glucose/delete', kind: 'delete', body: glucoseDeleteSchema, versioned: true, conflicts: 'record', batch: true },
  'symptom.add': { path: '/symptoms/add', kind: 'add', body: symptomAddSchema, versioned: false, conflicts: 'none', batch: true },
  'symptom.remove': { path: '/symptoms/remove', kind: 'delete', body: symptomRemoveSchema, versioned: true, conflicts: 'record', batch: true },
  'appointment.add': { path: '/appointments/add', kind: 'add', body: appointmentAddSchema, versioned: false, conflicts: 'none', batch: true },
  'appointment.update': { path: '/appointments/update', kind: 'update', body: appointmentUpdateSchema, versioned: true, conflicts: 'record', batch: true },
  'appointment.delete': { path: '/appointments/delete', kind: 'delete', body: appointmentDeleteSchema, versioned: true, conflicts: 'record', batch: true },
  'labTest.add': { path: '/tests/add', kind: 'add', body: labTestAddSchema, versioned: false, conflicts: 'none', batch: true },
  'labTest.update': { path: '/tests/update', kind: 'update', body: labTestUpdateSchema, versioned: true, conflicts: 'record', batch: true },
  'labTest.delete': { path: '/tests/delete', kind: 'delete', body: labTestDeleteSchema, versioned: true, conflicts: 'record', batch: true },
  // The path really is singular `user` here (docs/requirements.md §7).
  'dose.markTaken': { path: '/user/medicines/taken', kind: 'add', body: medicineTakenSchema, versioned: false, conflicts: 'none', batch: true },
  'dose.undo': { path: '/user/medicines/taken/delete', kind: 'delete', body: medicineTakenDeleteSchema, versioned: true, conflicts: 'record', batch: true },
  'dose.remindLater': { path: '/users/medicines/remindLater', kind: 'add', body: remindLaterSchema, versioned: false, conflicts: 'none', batch: false },
  'profile.setMealTimes': {
    path: '/users/notificationTimings',
    kind: 'update',
    body: notificationTimingsSchema,
    versioned: true,
    wholeSet: true,
    conflicts: 'none',
    batch: false,
  },
  'profile.setMealTime': {
    path: '/users/notificationTimings',
    kind: 'update',
    body: notificationTimingsSchema,
    versioned: true,
    conflicts: 'field',
    batch: false,
  },
  'profile.addGlucometerDay': { path: '/users/glucometerAlerts', kind: 'add', body: glucometerAlertSchema, versioned: false, conflicts: 'none', batch: false },
  'profile.removeGlucometerDay': {
    path: '/users/glucometerAlerts/remove',
    kind: 'delete',
    body: glucometerAlertSchema,
    versioned: false,
    conflicts: 'none',
    batch: false,
  },
  'push.register': { path: '/users/notificationToken', kind: 'update', body: notificationTokenSchema, versioned: false, conflicts: 'none', batch: false },
} as const satisfies Record<string, MutationSpec>;

export type MutationName = keyof typeof MUTATIONS;

/**
 * The body a mutation sends, as its schema types it, without the `mutationId` the outbox adds:
 * only the schema's fields (a field it does not name is a compile error, though the server would
 * only ignore it).
 */
export type MutationBody<N extends MutationName> = Omit<Named<FromBody<(typeof MUTATIONS)[N]['body']>>, 'mutationId'>;
/** The body its schema accepts (behind a conditional type, which keeps FromSchema from going too deep). */
export type FromBody<S> = S extends JSONSchema ? FromSchema<S> : never;
/** Only the fields a type names: without the index signature of a schema that allows more. */
type Named<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

/** A mutation as the device queues it: what `mutation` builds. */
export interface MutationDraft {
  readonly name: MutationName;
  readonly kind: 'add' | 'update' | 'delete';
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly versioned: boolean;
}

/** The named mutation with this body, as the outbox queues it. */
export function mutation<N extends MutationName>(name: N, body: MutationBody<N>): MutationDraft {
  const m: MutationSpec = MUTATIONS[name];
  return { name, kind: m.kind, path: m.path, body: { ...body }, versioned: m.versioned };
}

/**
 * The registry's entry of a queued mutation's name; undefined for a name it does not hold (an
 * entry queued by an older version of the app, which named its intent: `glucose.changeValue`,
 * `profile.setBreakfast`…): such an entry is sent as it was queued, by its path.
 */
export function mutationNamed(name: string): MutationSpec | undefined {
  return Object.hasOwn(MUTATIONS, name) ? MUTATIONS[name as MutationName] : undefined;
}

/** The names of the writes that may go in a batch. */
export type BatchMutation = { [N in MutationName]: (typeof MUTATIONS)[N]['batch'] extends true ? N : never }[MutationName];
export type BatchPath = (typeof MUTATIONS)[BatchMutation]['path'];

const entries = Object.entries(MUTATIONS) as [MutationName, MutationSpec][];

/** The routes whose writes may go in a batch (schemas/batch.ts). */
export const BATCH_PATHS = [...new Set(entries.filter(([, m]) => m.batch).map(([, m]) => m.path))] as BatchPath[];

/** The names of the batch's writes, each of which the server must run (server/routes/patient-writes.ts). */
export const BATCH_MUTATIONS = entries.filter(([, m]) => m.batch).map(([name]) => name as BatchMutation);

/** The writes whose body says when the change was made (`madeAt`): the edits and removals, and the meal times. */
export const MADE_AT_PATHS: ReadonlySet<string> = new Set(entries.filter(([, m]) => 'madeAt' in m.body.properties).map(([, m]) => m.path));
