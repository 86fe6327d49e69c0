// A server process in miniature for server/db/client.db.test.ts: opens the embedded database in the
// folder given, commits one row in a transaction, says "committed" and waits to be killed.
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';

const [dataDir, value] = process.argv.slice(2);
const { db } = await openDatabase({ dataDir });
await db.execute(sql`create table if not exists commit_probe (value integer not null)`);
await db.transaction(async (tx) => {
  await tx.execute(sql`insert into commit_probe (value) values (${Number(value)})`);
});
process.stdout.write('committed\n');
setInterval(() => undefined, 60_000);
