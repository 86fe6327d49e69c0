// The database as a whole rather than one aggregate: whether it answers, which migrations it has,
// and how many rows each table holds (the health routes, backup and restore).
import { getTableName, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { queryRows } from '../db/raw.ts';
import * as schema from '../db/schema.ts';

/** Every table of the schema, by its SQL name. */
const TABLES = Object.values(schema)
  .flatMap((t: unknown) => (t instanceof PgTable ? [getTableName(t)] : []))
  .sort();

export const databaseRepo = {
  /** Throws when the database does not answer. */
  async ping(db: Db): Promise<void> {
    await db.execute(sql`select 1`);
  },

  /** When the newest migration applied was made (drizzle's created_at, ms since the epoch), 0 for none. */
  async newestMigrationApplied(db: Db): Promise<number> {
    const [row] = await queryRows<{ newest: string | number | null }>(db, sql`select max(created_at) as newest from drizzle.__drizzle_migrations`);
    return Number(row?.newest ?? 0);
  },

  /** Rows per table: what a backup holds, and what a restore must give back. */
  async countRows(db: Db): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
      counts[table] = Number(row?.n ?? 0);
    }
    return counts;
  },
};
