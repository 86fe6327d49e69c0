// The live change feed (issue 46, docs/sync-protocol.md "Live changes"): which patient's records
// took a new version, from any instance, within a moment of the commit. The database says it
// (NOTIFY eddy_changes with the patient's id, migration 0015); this instance hands it to the
// streams open here: per patient (the patient's app, a staff review) and per hospital (the
// worklist). A signal carries no health data: the device pulls by version as it always does.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../db/client.ts';
import type { AppContext } from '../context.ts';
import { patientRepo } from '../repositories/patients.ts';

export const CHANGES_CHANNEL = 'eddy_changes';

/** The version a patient's records have reached (what a `change` event says; the device pulls from its own). */
export const patientVersion = (ctx: AppContext, patientId: string): Promise<number> => patientRepo.version(ctx.db, patientId);

/** What a stream follows: one patient's records, or every patient of one hospital. */
export type Topic = { patientId: string } | { hospitalId: string };

/** Told that its topic changed; `gap`: notifications may have been missed (the listener reconnected). */
export type ChangeListener = (gap: boolean) => void;

/** At most this many patients' hospitals are remembered (a worklist's patients; the map starts again when full). */
const HOSPITAL_MEMO = 50_000;

export class ChangeFeed {
  private readonly patients = new Map<string, Set<ChangeListener>>();
  private readonly hospitals = new Map<string, Set<ChangeListener>>();
  private readonly hospitalOf = new Map<string, string>();
  private stopListening: (() => Promise<void>) | undefined;
  /** How to end each stream open here: at shutdown, before the HTTP server waits for its answers to finish. */
  private readonly streams = new Set<() => void>();

  private readonly db: Db;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.db = db;
    this.log = log;
  }

  async start(database: Pick<Database, 'listen'>): Promise<void> {
    this.stopListening = await database.listen(
      CHANGES_CHANNEL,
      (patientId) => void this.changed(patientId).catch((err: unknown) => this.log.warn({ err }, 'a change could not be handed to its streams')),
      () => this.everyone(),
    );
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  /** Follows `topic` until the returned function is called. */
  subscribe(topic: Topic, listener: ChangeListener): () => void {
    const [map, key] = 'patientId' in topic ? [this.patients, topic.patientId] : [this.hospitals, topic.hospitalId];
    const set = map.get(key) ?? new Set<ChangeListener>();
    set.add(listener);
    map.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && map.get(key) === set) map.delete(key);
    };
  }

  remember(end: () => void): void {
    this.streams.add(end);
  }

  forget(end: () => void): void {
    this.streams.delete(end);
  }

  /** Ends every stream open here (the devices open one again, on another instance or this one restarted). */
  endAll(): void {
    for (const end of [...this.streams]) end();
  }

  private async changed(patientId: string): Promise<void> {
    for (const l of [...(this.patients.get(patientId) ?? [])]) l(false);
    if (this.hospitals.size === 0) return;
    const hospitalId = await this.hospitalOfPatient(patientId);
    if (hospitalId) for (const l of [...(this.hospitals.get(hospitalId) ?? [])]) l(false);
  }

  private async hospitalOfPatient(patientId: string): Promise<string | undefined> {
    const known = this.hospitalOf.get(patientId);
    if (known) return known;
    const row = await patientRepo.byId(this.db, patientId);
    if (!row) return undefined;
    if (this.hospitalOf.size >= HOSPITAL_MEMO) this.hospitalOf.clear();
    this.hospitalOf.set(patientId, row.hospitalId);
    return row.hospitalId;
  }

  /** Everyone looks again (after a gap in what the database told). */
  private everyone(): void {
    // A patient may have moved hospital meanwhile.
    this.hospitalOf.clear();
    for (const set of [...this.patients.values(), ...this.hospitals.values()]) for (const l of [...set]) l(true);
  }
}
