// The patient writes a device queues most while offline, once: each route's path, its body schema and
// the change it makes. Their own routes (records.ts, medicines.ts) and the batch route (batch.ts)
// both run them from here, so a write in a batch is the same write, checked the same way.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { answers, appointmentWritten, glucoseWritten, intakeWritten, labTestWritten, message, symptomWritten } from '../../schemas/api.ts';
import { appointmentAddSchema, appointmentDeleteSchema, appointmentUpdateSchema } from '../../schemas/appointment.ts';
import { BATCH_PATHS, type BatchPath } from '../../schemas/batch.ts';
import { glucoseAddSchema, glucoseDeleteSchema, glucoseUpdateSchema } from '../../schemas/glucose.ts';
import { labTestAddSchema, labTestDeleteSchema, labTestUpdateSchema } from '../../schemas/lab-test.ts';
import { medicineTakenDeleteSchema, medicineTakenSchema } from '../../schemas/medicine.ts';
import { symptomAddSchema, symptomRemoveSchema } from '../../schemas/symptom.ts';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { patientAccess, type Subject } from '../http/guards.ts';
import { answerAdd, answerWrite } from '../http/mutation-reply.ts';
import * as appointments from '../services/appointment-service.ts';
import * as glucose from '../services/glucose-service.ts';
import * as labs from '../services/lab-test-service.ts';
import * as medicines from '../services/medicine-service.ts';
import { ok, okOrCreated, type WriteAnswer } from '../services/mutations.ts';
import { claimChange, type MadeChange } from '../services/record-made.ts';
import * as symptoms from '../services/symptom-service.ts';

export interface PatientWrite {
  path: BatchPath;
  /** The body's JSON Schema (the route's, with `mutationId`). */
  schema: object;
  /** What the route is for, in a line (the API's document). */
  summary: string;
  /** Its answer's JSON Schema when the write is made (schemas/api.ts), 201 for an add that created, else 200. */
  answer: Readonly<Record<string, unknown>>;
  /** The change, in the transaction `tx`, for a body the schema has accepted. */
  change(tx: AppContext, subject: Subject, body: unknown): Promise<WriteAnswer>;
  /**
   * An add's shortcut for its own route: a new record with a mutation id in one statement, the
   * answer's text back (201); undefined when the general path must decide (see answerAdd).
   */
  add?(ctx: AppContext, subject: Subject, body: unknown, mutationId: string): Promise<string | undefined>;
}

type Add<Body> = (ctx: AppContext, s: Subject, body: Body, mutationId: string) => Promise<string | undefined>;

/**
 * The body `schema` accepts, as FromSchema types it. Behind a conditional type: TypeScript would
 * otherwise try to infer `write`'s schema back from its callbacks through FromSchema, which goes
 * too deep for it.
 */
type BodyOf<S> = S extends JSONSchema ? FromSchema<S> : never;

/** The change (and an add's shortcut) take the body as its schema types it. */
function write<S extends object>(
  path: BatchPath,
  doc: { summary: string; answer: Readonly<Record<string, unknown>>; record?: (body: BodyOf<S>) => string | undefined },
  schema: S,
  change: (tx: AppContext, s: Subject, body: BodyOf<S>) => Promise<WriteAnswer>,
  add?: Add<BodyOf<S>>,
): PatientWrite {
  // The one cast: a PatientWrite is only handed a body `schema` has accepted (Fastify checks the
  // route's body before its handler runs; the batch checks each write's body with the same schema
  // before it runs it), and one list of writes of different bodies cannot carry each one's type.
  const accepted = (body: unknown) => body as BodyOf<S>;
  const { record, ...described } = doc;
  const made = (body: unknown): MadeChange => (typeof body === 'object' && body !== null ? (body as MadeChange) : {});
  return {
    path,
    ...described,
    schema,
    change: async (tx, s, body) => {
      // An edit or removal notes when it was made; one sent again on no version after a heal, made
      // before the change its record holds, changes nothing (services/record-made.ts). Noted first,
      // in the same transaction: a change refused after it leaves no note.
      // What a write was made on (`madeOn`) tests for another's change in between: none is when the
      // record holds this device's own earlier change (sent again ahead of it by a heal).
      const key = record?.(accepted(body));
      const own = key !== undefined && (await claimChange(tx.db, s.patientId, key, made(body))).own;
      return change(tx, s, accepted(own ? withoutMadeOn(body) : body));
    },
    ...(add ? { add: (ctx, s, body, id) => add(ctx, s, accepted(body), id) } : {}),
  };
}

/** The body without what it was made on. */
function withoutMadeOn(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('madeOn' in body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => key !== 'madeOn'));
}

const glucoseRecord = (b: { glucoseId: string }) => `glucose:${b.glucoseId}`;
const appointmentRecord = (b: { appointmentId: string }) => `appointment:${b.appointmentId}`;
const testRecord = (b: { testId: string }) => `test:${b.testId}`;

export const PATIENT_WRITES: readonly PatientWrite[] = [
  write(
    '/glucose/add',
    { summary: 'Record a glucose reading', answer: glucoseWritten },
    glucoseAddSchema,
    async (tx, s, b) => okOrCreated(await glucose.addGlucose(tx, s.patientId, b)),
    (ctx, s, b, id) => glucose.addGlucoseAnswered(ctx, s.patientId, b, id),
  ),
  write('/glucose/update', { summary: 'Change a glucose reading', answer: glucoseWritten, record: glucoseRecord }, glucoseUpdateSchema, async (tx, s, b) => ok(await glucose.updateGlucose(tx, s.patientId, b))),
  write('/glucose/delete', { summary: 'Delete a glucose reading', answer: message, record: glucoseRecord }, glucoseDeleteSchema, async (tx, s, b) => ok(await glucose.deleteGlucose(tx, s.patientId, b))),
  write('/symptoms/add', { summary: 'Record a symptom', answer: symptomWritten }, symptomAddSchema, async (tx, s, b) => okOrCreated(await symptoms.addSymptom(tx, s, b))),
  write('/symptoms/remove', { summary: 'Remove a symptom', answer: message, record: (b) => (b._id === undefined ? undefined : `symptom:${b._id}`) }, symptomRemoveSchema, async (tx, s, b) => ok(await symptoms.removeSymptom(tx, s, b))),
  write(
    '/appointments/add',
    { summary: 'Add an appointment', answer: appointmentWritten },
    appointmentAddSchema,
    async (tx, s, b) => okOrCreated(await appointments.addAppointment(tx, s.patientId, b)),
    (ctx, s, b, id) => appointments.addAppointmentAnswered(ctx, s.patientId, b, id),
  ),
  write('/appointments/update', { summary: 'Change an appointment', answer: appointmentWritten, record: appointmentRecord }, appointmentUpdateSchema, async (tx, s, b) => ok(await appointments.updateAppointment(tx, s.patientId, b))),
  write('/appointments/delete', { summary: 'Delete an appointment', answer: message, record: appointmentRecord }, appointmentDeleteSchema, async (tx, s, b) => ok(await appointments.deleteAppointment(tx, s.patientId, b))),
  write(
    '/tests/add',
    { summary: 'Record a lab test result', answer: labTestWritten },
    labTestAddSchema,
    async (tx, s, b) => okOrCreated(await labs.addLabTest(tx, s.patientId, b)),
    (ctx, s, b, id) => labs.addLabTestAnswered(ctx, s.patientId, b, id),
  ),
  write('/tests/update', { summary: 'Change a lab test result', answer: labTestWritten, record: testRecord }, labTestUpdateSchema, async (tx, s, b) => ok(await labs.updateLabTest(tx, s.patientId, b))),
  write('/tests/delete', { summary: 'Delete a lab test result', answer: message, record: testRecord }, labTestDeleteSchema, async (tx, s, b) => ok(await labs.deleteLabTest(tx, s.patientId, b))),
  // The path really is singular `user` here (docs/requirements.md §7).
  write('/user/medicines/taken', { summary: 'Mark a dose taken', answer: intakeWritten }, medicineTakenSchema, async (tx, s, b) => ok(await medicines.markTaken(tx, s, b))),
  write('/user/medicines/taken/delete', { summary: 'Undo a dose marked taken', answer: message, record: (b) => `dose:${b.intakeId}` }, medicineTakenDeleteSchema, async (tx, s, b) => ok(await medicines.removeDose(tx, s.patientId, b))),
];

export const patientWrite = new Map(PATIENT_WRITES.map((w) => [w.path, w]));
const missing = BATCH_PATHS.filter((p) => !patientWrite.has(p));
if (missing.length > 0) throw new Error(`batch paths without a write: ${missing.join(', ')}`);

/** Registers the route of the write at `path`: the patient's own, in one transaction, once per mutation id. */
export function postPatientWrite(api: TypedApp, ctx: AppContext, path: BatchPath): void {
  const w = patientWrite.get(path);
  if (!w) throw new Error(`no patient write at ${path}`);
  const add = w.add;
  // An add answers 201 when it created the record, 200 when a record with that _id was there already.
  const response = path.endsWith('/add') ? answers(w.answer, 200, 201) : answers(w.answer);
  api.post(path, { preHandler: patientAccess(ctx, { write: true }), schema: { summary: w.summary, body: w.schema, response } }, async (req, reply) =>
    add
      ? answerAdd(ctx, req, reply, (s, id) => add(ctx, s, req.body, id), (tx, s) => w.change(tx, s, req.body))
      : answerWrite(ctx, req, reply, (tx, s) => w.change(tx, s, req.body)),
  );
}
