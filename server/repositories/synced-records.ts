// The patient record tables that devices keep in sync (glucose, symptoms, appointments, lab tests,
// doses taken) share one shape: a client-chosen uuid `id`, `patientId`, `updatedAt`, a soft-delete
// `deletedAt` and the database-stamped `version`. This module holds the operations whose
// correctness the sync protocol depends on, once.
import { and, asc, desc, eq, gt, gte, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, TableConfig } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { versionPage, type VersionPage } from './version-page.ts';

type SyncedTable = PgTable<TableConfig> & {
  id: PgColumn;
  patientId: PgColumn;
  updatedAt: PgColumn;
  deletedAt: PgColumn;
  version: PgColumn;
};

export interface Changes<Row> {
  rows: Row[];
  deleted: string[];
}

export type Pull<Row> = Changes<Row> & Omit<VersionPage<Row>, 'rows'>;

/** A live row as the API sends it (JSON text made by the database, json-view.ts) and its group. */
export interface JsonRow {
  json: string;
  /** The value of the view's `group` column (e.g. a reading's type), null without one. */
  group: string | null;
}

/** The live rows of a list as JSON text, per group (null: the view has no group), and the deleted ids. */
export interface JoinedChanges {
  /** Each group's rows' JSON texts joined by commas; a group without live rows is absent. */
  groups: Map<string | null, string>;
  deleted: string[];
}

/** How the API shows a row: its JSON text, and optionally the column its lists are split by. */
export interface JsonView {
  json: SQL<string>;
  group?: PgColumn;
}

export function syncedRecords<T extends SyncedTable>(table: T, orderBy: PgColumn, view: JsonView) {
  type Row = T['$inferSelect'] & { id: string; patientId: string; version: number; deletedAt: Date | null };
  type Insert = T['$inferInsert'];
  const own = (patientId: string, id: string) => and(eq(table.id, id), eq(table.patientId, patientId));
  const group = view.group ? sql<string | null>`${view.group}` : sql<null>`null`;
  /** The ids of this patient's rows deleted at or after `since` (inclusive, as listChanges says). */
  const deletedSince = async (db: Db, patientId: string, since: Date): Promise<string[]> => {
    const gone = await db
      .select({ id: table.id })
      .from(table as PgTable)
      .where(and(eq(table.patientId, patientId), isNotNull(table.deletedAt), gte(table.updatedAt, since)));
    return gone.map((g) => String(g.id));
  };

  return {
    /**
     * Inserts unless a row with that id exists. Replaying an add is therefore harmless: the stored
     * row comes back with created=false. An id that belongs to another patient is reported as
     * 'foreign' and reveals nothing about that row.
     */
    async insertIdempotent(db: Db, row: Insert & { id: string; patientId: string }): Promise<{ row: Row; created: boolean } | 'foreign'> {
      const inserted = (await db.insert(table).values(row as never).onConflictDoNothing({ target: table.id }).returning()) as Row[];
      if (inserted[0]) return { row: inserted[0], created: true };
      const [existing] = (await db.select().from(table as PgTable).where(eq(table.id, row.id)).limit(1)) as Row[];
      if (!existing || existing.patientId !== row.patientId) return 'foreign';
      return { row: existing, created: false };
    },

    async findOwn(db: Db, patientId: string, id: string): Promise<Row | undefined> {
      const [row] = (await db.select().from(table as PgTable).where(own(patientId, id)).limit(1)) as Row[];
      return row;
    },

    /**
     * The patient's row (live or deleted), locked until the transaction ends: a check of its
     * version and the write that follows cannot be split by another writer of the same row.
     * FOR NO KEY UPDATE, like every lock on a patient's rows: a foreign key check (KEY SHARE) of a
     * concurrent insert never waits on it, so it cannot close a circle with the version counter.
     */
    async lockOwn(db: Db, patientId: string, id: string): Promise<Row | undefined> {
      const [row] = (await db.select().from(table as PgTable).where(own(patientId, id)).limit(1).for('no key update')) as Row[];
      return row;
    },

    /** Updates a live row of this patient; undefined when there is none (unknown, foreign or deleted). */
    async updateOwn(db: Db, patientId: string, id: string, values: Partial<Insert>): Promise<Row | undefined> {
      const [row] = (await db
        .update(table)
        .set({ ...values, updatedAt: new Date() } as never)
        .where(and(own(patientId, id), isNull(table.deletedAt)))
        .returning()) as Row[];
      return row;
    },

    /**
     * Soft-deletes; repeating it is a no-op. Returns false only when the patient never had that id,
     * so a repeated delete still answers like the first one.
     */
    async softDeleteOwn(db: Db, patientId: string, id: string): Promise<boolean> {
      const now = new Date();
      const updated = await db
        .update(table)
        .set({ deletedAt: now, updatedAt: now } as never)
        .where(and(own(patientId, id), isNull(table.deletedAt)))
        .returning({ id: table.id });
      if (updated.length > 0) return true;
      return (await this.findOwn(db, patientId, id)) !== undefined;
    },

    /**
     * Live rows, or with `since` the rows changed at or after it plus the ids deleted at or after it.
     * Inclusive on purpose: clients take their checkpoint from an `updatedAt` they received, which
     * JSON carries to the millisecond while PostgreSQL stores microseconds, and two writes can share a
     * millisecond. Sending a row twice is harmless; missing one is not. (Wall clocks can still miss a
     * late commit: devices that know versions pull with `pullSinceJson` instead.)
     */
    async listChanges(db: Db, patientId: string, since?: Date, extra?: SQL): Promise<Changes<Row>> {
      const live = and(eq(table.patientId, patientId), isNull(table.deletedAt), since ? gte(table.updatedAt, since) : undefined, extra);
      const rows = (await db.select().from(table as PgTable).where(live).orderBy(desc(orderBy))) as Row[];
      if (!since) return { rows, deleted: [] };
      return { rows, deleted: await deletedSince(db, patientId, since) };
    },

    /**
     * listChanges as the API writes it: for each group (all rows when the view has none), the live
     * rows' JSON texts joined by commas, newest first, aggregated by the database, so the server
     * reads one value per group however many rows the patient has.
     */
    async listChangesJson(db: Db, patientId: string, since?: Date): Promise<JoinedChanges> {
      const live = and(eq(table.patientId, patientId), isNull(table.deletedAt), since ? gte(table.updatedAt, since) : undefined);
      const joined = sql<string>`string_agg(${view.json}, ',' order by ${orderBy} desc)`;
      const query = db.select({ group, joined }).from(table as PgTable).where(live);
      const rows = view.group ? await query.groupBy(view.group) : await query;
      const groups = new Map(rows.filter((r) => r.joined !== null).map((r) => [r.group, r.joined]));
      if (!since) return { groups, deleted: [] };
      return { groups, deleted: await deletedSince(db, patientId, since) };
    },

    /**
     * The rows whose version is above `since`, oldest change first, at most `limit`: live ones in
     * `rows` as the API's JSON text (json-view.ts), deleted ones as ids. Because versions become
     * visible in commit order per patient (migration 0004), nothing at or below the returned
     * checkpoint can still appear later.
     */
    async pullSinceJson(db: Db, patientId: string, since: number, limit: number): Promise<Pull<JsonRow>> {
      const fetched = await db
        .select({
          id: sql<string>`${table.id}`,
          version: table.version,
          json: sql<string | null>`case when ${table.deletedAt} is null then ${view.json} end`,
          group,
        })
        .from(table as PgTable)
        .where(and(eq(table.patientId, patientId), gt(table.version, since)))
        .orderBy(asc(table.version))
        .limit(limit + 1);
      const page = versionPage(fetched as Array<{ id: string; version: number; json: string | null; group: string | null }>, since, limit);
      return {
        rows: page.rows.flatMap((r) => (r.json === null ? [] : [{ json: r.json, group: r.group }])),
        deleted: page.rows.filter((r) => r.json === null).map((r) => r.id),
        checkpoint: page.checkpoint,
        ...(page.next !== undefined ? { next: page.next } : {}),
      };
    },

  };
}
