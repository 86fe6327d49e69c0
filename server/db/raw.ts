// Raw statements (`sql` the query builder cannot write: a window count, a union of aggregates, a
// look into drizzle's own table) and their rows.
import type { SQLWrapper } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * Runs a raw statement on `db` (the pool or a transaction) and returns its rows, typed `Row`: the
 * statement's select list decides their shape, so the caller names it, as `sql<T>` does for a value.
 */
export async function queryRows<Row>(db: Db, statement: SQLWrapper | string): Promise<Row[]> {
  const result = await db.execute(statement);
  // The one cast: Db is the query builder over either driver (PgQueryResultHKT), so `execute`'s
  // result is typed `unknown`; node-postgres's QueryResult and PGlite's Results both carry the rows
  // in `rows`, as parsed from the select list, which no type can read.
  return (result as { rows: Row[] }).rows;
}
