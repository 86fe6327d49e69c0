// The patient record tables that devices keep in sync (glucose, symptoms, appointments, lab tests,
// doses taken) share one shape: a client-chosen uuid `id`, `patientId`, `updatedAt`, a soft-delete
// `deletedAt` and the database-stamped `version`. This module holds the operations whose
// correctness the sync protocol depends on, once.
import { and, asc, count, desc, eq, getTableColumns, getTableName, gt, max, gte, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, TableConfig } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { perDb, prepareSql } from '../db/prepared.ts';
import { queryRows } from '../db/raw.ts';
import { appliedMutations, syncCounters } from '../db/schema.ts';

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

/** The live rows of a list as JSON text, per group (null: the view has no group), and the deleted ids. */
export interface JoinedChanges {
  /** Each group's rows' JSON texts joined by commas; a group without live rows is absent. */
  groups: Map<string | null, string>;
  deleted: string[];
}

/** A page of a pull by version, as the API writes it: see pullSinceJson. */
export interface PulledPage extends JoinedChanges {
  /** The version to ask from next time: the page's last, or `since` when nothing changed. */
  checkpoint: number;
  /** Present when more rows remain: the version to ask from for the next page (= checkpoint). */
  next?: number;
}

/** pullSinceJson's rows: one per group with live rows, and one for the page. */
interface PageRow {
  kind: 'live' | 'page';
  grp: string | null;
  joined: string | null;
  deleted: string[] | null;
  /** bigint: a string from node-postgres, a number from PGlite. */
  top: string | number | null;
  fetched: string | number | null;
}

/** How the API shows a row: its JSON text, and optionally the column its lists are split by. */
export interface JsonView {
  json: SQL<string>;
  group?: PgColumn;
}

export function syncedRecords<T extends SyncedTable>(table: T, orderBy: PgColumn, view: JsonView) {
  type Row = T['$inferSelect'] & { id: string; patientId: string; version: number; deletedAt: Date | null };
  type Insert = T['$inferInsert'];
  // Drizzle types a query of a table that is a type parameter only through PgTable, the upper bound
  // of every table (a query of `T` itself does not compile): the queries name `source`, and `tableRows`
  // gives what they return the table's row type back.
  const source: PgTable = table;
  /** The rows a query of `source` returned: `table`'s rows, whose type its query could not carry. */
  const tableRows = (found: Record<string, unknown>[]): Row[] => found as Row[];
  const own = (patientId: string, id: string) => and(eq(table.id, id), eq(table.patientId, patientId));
  const group = view.group ? sql<string | null>`${view.group}` : sql<null>`null`;
  /** The ids of this patient's rows deleted at or after `since` (inclusive, as listChanges says). */
  const deletedSince = async (db: Db, patientId: string, since: Date): Promise<string[]> => {
    const gone = await db
      .select({ id: table.id })
      .from(source)
      .where(and(eq(table.patientId, patientId), isNotNull(table.deletedAt), gte(table.updatedAt, since)));
    return gone.map((g) => String(g.id));
  };

  /** listStamp's statement (every list asks it first), built and prepared once per database handle. */
  const stampStatement = perDb((db) => {
    const patientId = sql.placeholder('patientId');
    const counter = db.select({ version: syncCounters.version }).from(syncCounters).where(eq(syncCounters.patientId, patientId));
    return db
      .select({ n: count(), top: max(table.version), counter: sql<string | null>`(${counter})` })
      .from(source)
      .where(eq(table.patientId, patientId))
      .prepare(`eddy_list_stamp_${getTableName(table)}`);
  });

  /**
   * insertAnswered's statement for one set of columns, the null ones apart (a null value has no
   * column type to convert it with), built and prepared once per database handle.
   */
  const answeredStatements = perDb(() => new Map<string, ReturnType<typeof prepareSql<{ body: string }>>>());
  const answeredStatement = (db: Db, entries: readonly (readonly [string, unknown])[]) => {
    const built = answeredStatements(db);
    const key = entries.map(([name, v]) => (v === null ? `${name}?` : name)).join(',');
    let statement = built.get(key);
    if (!statement) {
      const columns = getTableColumns(source);
      const names = entries.map(([name, v]) => {
        const column = columns[name];
        if (!column) throw new Error(`insertAnswered: no column ${name}`);
        return { column, isNull: v === null };
      });
      // Each value is a placeholder; one with its column converts like sql.param(value, column).
      const params = names.map(({ column, isNull }, i) => (isNull ? sql.placeholder(`v${i}`) : sql.param(sql.placeholder(`v${i}`), column)));
      statement = prepareSql<{ body: string }>(
        db,
        sql`
        with ins as (
          insert into ${table} (${sql.join(
            names.map(({ column }) => sql.identifier(column.name)),
            sql`, `,
          )})
          values (${sql.join(params, sql`, `)})
          on conflict (${sql.identifier(table.id.name)}) do nothing
          returning *
        ),
        answer as (select ${sql.placeholder('prefix')}::text || ${view.json} || '}' as body from ins as ${table}),
        stored as (
          insert into ${appliedMutations} (patient_id, mutation_id, status, response)
          select ${sql.placeholder('patientId')}, ${sql.placeholder('mutationId')}, 201, body::jsonb from answer
        )
        select body from answer`,
      );
      built.set(key, statement);
    }
    return statement;
  };

  return {
    /** The table's name: what a cache of its lists is keyed by. */
    name: getTableName(table),

    /**
     * What the patient's rows in this table are made of, in one value that any insert, update or
     * delete (soft or hard) changes and that never comes back: the count of the rows, the highest
     * version among them, and the patient's version counter. See services/list-cache.ts.
     */
    async listStamp(db: Db, patientId: string): Promise<string> {
      const [row] = await stampStatement(db).execute({ patientId });
      return `${row?.n ?? 0}:${row?.top ?? ''}:${row?.counter ?? ''}`;
    },

    /**
     * Inserts unless a row with that id exists. Replaying an add is therefore harmless: the stored
     * row comes back with created=false. An id that belongs to another patient is reported as
     * 'foreign' and reveals nothing about that row.
     */
    async insertIdempotent(db: Db, row: Insert & { id: string; patientId: string }): Promise<{ row: Row; created: boolean } | 'foreign'> {
      const inserted = tableRows(await db.insert(source).values(row).onConflictDoNothing({ target: table.id }).returning());
      if (inserted[0]) return { row: inserted[0], created: true };
      const [existing] = tableRows(await db.select().from(source).where(eq(table.id, row.id)).limit(1));
      if (!existing || existing.patientId !== row.patientId) return 'foreign';
      return { row: existing, created: false };
    },

    /**
     * A new record and the answer to its add, in one statement: the row is inserted unless its id
     * exists, and the answer (`{"message":…,"data":<the row as json-view writes it>}`, status 201)
     * is stored under the mutation id (applied-mutations.ts) and returned as text. The same end
     * state as runMutation's claim, insertIdempotent and record, without a transaction's round trips.
     *
     * undefined when the id exists (a replay, or another patient's id: the general path tells them
     * apart, and the statement changed nothing). A mutation id already applied makes the statement
     * fail with the primary key's unique violation, and roll back whole.
     */
    async insertAnswered(
      db: Db,
      row: Insert & { id: string; patientId: string },
      answer: { message: string; mutationId: string },
    ): Promise<string | undefined> {
      const entries = Object.entries(row).filter(([, v]) => v !== undefined);
      const values: Record<string, unknown> = {
        prefix: `{"message":${JSON.stringify(answer.message)},"data":`,
        patientId: row.patientId,
        mutationId: answer.mutationId,
      };
      entries.forEach(([, v], i) => (values[`v${i}`] = v));
      const result = await answeredStatement(db, entries).execute(values);
      return result.rows[0]?.body;
    },

    async findOwn(db: Db, patientId: string, id: string): Promise<Row | undefined> {
      const [row] = tableRows(await db.select().from(source).where(own(patientId, id)).limit(1));
      return row;
    },

    /**
     * The patient's row (live or deleted), locked until the transaction ends: a check of its
     * version and the write that follows cannot be split by another writer of the same row.
     * FOR NO KEY UPDATE, like every lock on a patient's rows: a foreign key check (KEY SHARE) of a
     * concurrent insert never waits on it, so it cannot close a circle with the version counter.
     */
    async lockOwn(db: Db, patientId: string, id: string): Promise<Row | undefined> {
      const [row] = tableRows(await db.select().from(source).where(own(patientId, id)).limit(1).for('no key update'));
      return row;
    },

    /** Updates a live row of this patient; undefined when there is none (unknown, foreign or deleted). */
    async updateOwn(db: Db, patientId: string, id: string, values: Partial<Insert>): Promise<Row | undefined> {
      const [row] = tableRows(
        await db
          .update(source)
          .set({ ...values, updatedAt: new Date() })
          .where(and(own(patientId, id), isNull(table.deletedAt)))
          .returning(),
      );
      return row;
    },

    /**
     * Soft-deletes; repeating it is a no-op. Returns false only when the patient never had that id,
     * so a repeated delete still answers like the first one.
     */
    async softDeleteOwn(db: Db, patientId: string, id: string): Promise<boolean> {
      const now = new Date();
      const updated = await db
        .update(source)
        .set({ deletedAt: now, updatedAt: now })
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
      const rows = tableRows(await db.select().from(source).where(live).orderBy(desc(orderBy)));
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
      const query = db.select({ group, joined }).from(source).where(live);
      const rows = view.group ? await query.groupBy(view.group) : await query;
      const groups = new Map(rows.filter((r) => r.joined !== null).map((r) => [r.group, r.joined]));
      if (!since) return { groups, deleted: [] };
      return { groups, deleted: await deletedSince(db, patientId, since) };
    },

    /**
     * The rows whose version is above `since`, oldest change first, at most `limit`: the live ones
     * as the API's JSON text (json-view.ts), joined per group like listChangesJson, the deleted
     * ones as ids. Because versions become visible in commit order per patient (migration 0004),
     * nothing at or below the returned checkpoint can still appear later.
     *
     * The database aggregates the page into one row per group plus one for the page itself, rather
     * than handing over a row per record: on the embedded database each row handed over costs more
     * than the text in it. (Timed only on a busy machine, where it looked cheaper; a whole first pull
     * of 10,000 readings took 0.3–0.6 s with and without it on a quiet one.)
     */
    async pullSinceJson(db: Db, patientId: string, since: number, limit: number): Promise<PulledPage> {
      const page = db
        .select({
          id: sql<string>`${table.id}::text`.as('id'),
          version: sql<number>`${table.version}`.as('version'),
          json: sql<string | null>`case when ${table.deletedAt} is null then ${view.json} end`.as('json'),
          grp: sql<string | null>`${group}`.as('grp'),
        })
        .from(source)
        .where(and(eq(table.patientId, patientId), gt(table.version, since)))
        .orderBy(asc(table.version))
        .limit(limit + 1);
      const rows = await queryRows<PageRow>(
        db,
        sql`
        with page as (${page}),
        kept as (select * from page order by version limit ${limit})
        select 'live' as kind, grp, string_agg(json, ',' order by version) as joined, null::text[] as deleted, null::bigint as top, null::bigint as fetched
          from kept where json is not null group by grp
        union all
        select 'page', null, null, coalesce(array_agg(id order by version) filter (where json is null), '{}'), max(version), (select count(*) from page)
          from kept`,
      );
      const groups = new Map<string | null, string>();
      let deleted: string[] = [];
      let checkpoint = since;
      let more = false;
      for (const r of rows) {
        if (r.kind === 'live') {
          if (r.joined !== null) groups.set(r.grp, r.joined);
          continue;
        }
        deleted = r.deleted ?? [];
        if (r.top !== null) checkpoint = Number(r.top);
        more = Number(r.fetched ?? 0) > limit;
      }
      return { groups, deleted, checkpoint, ...(more ? { next: checkpoint } : {}) };
    },
  };
}
