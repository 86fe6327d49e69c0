// The patient writes a device queues most while offline (the registry's batch writes,
// schemas/mutations.ts), once: each by its name, with the change it makes; the path and the body's
// schema are the registry's. Their own routes (records.ts, medicines.ts) and the batch route
// (batch.ts) both run them from here, so a write in a batch is the same write, checked the same way.
import { answers, appointmentWritten, glucoseWritten, intakeWritten, labTestWritten, message, symptomWritten } from '../../schemas/api.ts';
import { BATCH_MUTATIONS, MUTATIONS, type BatchMutation, type BatchPath, type FromBody } from '../../schemas/mutations.ts';
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
  name: BatchMutation;
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

/** A write's body as its route has accepted it: its schema's type in the registry. */
type BodyOf<N extends BatchMutation> = FromBody<(typeof MUTATIONS)[N]['body']>;

type Add<Body> = (ctx: AppContext, s: Subject, body: Body, mutationId: string) => Promise<string | undefined>;

/** The change (and an add's shortcut) take the body as the registry types it. */
function write<N extends BatchMutation>(
  name: N,
  doc: { summary: string; answer: Readonly<Record<string, unknown>>; record?: (body: BodyOf<N>) => string | undefined },
  change: (tx: AppContext, s: Subject, body: BodyOf<N>) => Promise<WriteAnswer>,
  add?: Add<BodyOf<N>>,
): PatientWrite {
  const { path, body: schema } = MUTATIONS[name];
  // The one cast: a PatientWrite is only handed a body `schema` has accepted (Fastify checks the
  // route's body before its handler runs; the batch checks each write's body with the same schema
  // before it runs it), and one list of writes of different bodies cannot carry each one's type.
  const accepted = (body: unknown) => body as BodyOf<N>;
  const { record, ...described } = doc;
  const made = (body: unknown): MadeChange => (typeof body === 'object' && body !== null ? (body as MadeChange) : {});
  return {
    name,
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
    'glucose.add',
    { summary: 'Record a glucose reading', answer: glucoseWritten },
    async (tx, s, b) => okOrCreated(await glucose.addGlucose(tx, s.patientId, b)),
    (ctx, s, b, id) => glucose.addGlucoseAnswered(ctx, s.patientId, b, id),
  ),
  write('glucose.update', { summary: 'Change a glucose reading', answer: glucoseWritten, record: glucoseRecord }, async (tx, s, b) =>
    ok(await glucose.updateGlucose(tx, s.patientId, b)),
  ),
  write('glucose.delete', { summary: 'Delete a glucose reading', answer: message, record: glucoseRecord }, async (tx, s, b) =>
    ok(await glucose.deleteGlucose(tx, s.patientId, b)),
  ),
  write('symptom.add', { summary: 'Record a symptom', answer: symptomWritten }, async (tx, s, b) => okOrCreated(await symptoms.addSymptom(tx, s, b))),
  write(
    'symptom.remove',
    { summary: 'Remove a symptom', answer: message, record: (b) => (b._id === undefined ? undefined : `symptom:${b._id}`) },
    async (tx, s, b) => ok(await symptoms.removeSymptom(tx, s, b)),
  ),
  write(
    'appointment.add',
    { summary: 'Add an appointment', answer: appointmentWritten },
    async (tx, s, b) => okOrCreated(await appointments.addAppointment(tx, s.patientId, b)),
    (ctx, s, b, id) => appointments.addAppointmentAnswered(ctx, s.patientId, b, id),
  ),
  write('appointment.update', { summary: 'Change an appointment', answer: appointmentWritten, record: appointmentRecord }, async (tx, s, b) =>
    ok(await appointments.updateAppointment(tx, s.patientId, b)),
  ),
  write('appointment.delete', { summary: 'Delete an appointment', answer: message, record: appointmentRecord }, async (tx, s, b) =>
    ok(await appointments.deleteAppointment(tx, s.patientId, b)),
  ),
  write(
    'labTest.add',
    { summary: 'Record a lab test result', answer: labTestWritten },
    async (tx, s, b) => okOrCreated(await labs.addLabTest(tx, s.patientId, b)),
    (ctx, s, b, id) => labs.addLabTestAnswered(ctx, s.patientId, b, id),
  ),
  write('labTest.update', { summary: 'Change a lab test result', answer: labTestWritten, record: testRecord }, async (tx, s, b) =>
    ok(await labs.updateLabTest(tx, s.patientId, b)),
  ),
  write('labTest.delete', { summary: 'Delete a lab test result', answer: message, record: testRecord }, async (tx, s, b) =>
    ok(await labs.deleteLabTest(tx, s.patientId, b)),
  ),
  write('dose.markTaken', { summary: 'Mark a dose taken', answer: intakeWritten }, async (tx, s, b) => ok(await medicines.markTaken(tx, s, b))),
  write('dose.undo', { summary: 'Undo a dose marked taken', answer: message, record: (b) => `dose:${b.intakeId}` }, async (tx, s, b) =>
    ok(await medicines.removeDose(tx, s.patientId, b)),
  ),
];

export const patientWrite = new Map(PATIENT_WRITES.map((w) => [w.name, w]));
const missing = BATCH_MUTATIONS.filter((name) => !patientWrite.has(name));
if (missing.length > 0) throw new Error(`batch writes without a change: ${missing.join(', ')}`);

/** Registers the route of the write `name`: the patient's own, in one transaction, once per mutation id. */
export function postPatientWrite(api: TypedApp, ctx: AppContext, name: BatchMutation): void {
  const w = patientWrite.get(name);
  if (!w) throw new Error(`no patient write named ${name}`);
  const add = w.add;
  // An add answers 201 when it created the record, 200 when a record with that _id was there already.
  const response = w.path.endsWith('/add') ? answers(w.answer, 200, 201) : answers(w.answer);
  api.post(w.path, { preHandler: patientAccess(ctx, { write: true }), schema: { summary: w.summary, body: w.schema, response } }, async (req, reply) =>
    add
      ? answerAdd(
          ctx,
          req,
          reply,
          (s, id) => add(ctx, s, req.body, id),
          (tx, s) => w.change(tx, s, req.body),
        )
      : answerWrite(ctx, req, reply, (tx, s) => w.change(tx, s, req.body)),
  );
}
