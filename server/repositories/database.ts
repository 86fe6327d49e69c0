// The database as a whole rather than one aggregate: whether it answers, which migrations it has,
// and how many rows each table holds (the health routes, backup and restore).
import { getTableName, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import * as schema from '../db/schema.ts';

/** Every table of the schema, by its SQL name. */
const TABLES = Object.values(schema)
  .flatMap((t: unknown) => (t instanceof PgTable ? [getTableName(t)] : []))
  .sort();

const rowsOf = <Row>(result: unknown): Row[] => (result as { rows: Row[] }).rows;

export const databaseRepo = {
  /** Throws when the database does not answer. */
  async ping(db: Db): Promise<void> {
    await db.execute(sql`select 1`);
  },

  /** When the newest migration applied was made (drizzle's created_at, ms since the epoch), 0 for none. */
  async newestMigrationApplied(db: Db): Promise<number> {
    const result = await db.execute(sql`select max(created_at) as newest from drizzle.__drizzle_migrations`);
    return Number(rowsOf<{ newest: string | number | null }>(result)[0]?.newest ?? 0);
  },

  /** Rows per table: what a backup holds, and what a restore must give back. */
  async countRows(db: Db): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const result = await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`);
      counts[table] = Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
    }
    return counts;
  },
};
