// A fresh PostgreSQL database beside the one a test run is given (DATABASE_URL), for one test file's
// harness or one browser test's server, and how to drop it afterwards. It is a copy of a migrated,
// empty template (db-template.ts).
import { randomBytes } from 'node:crypto';
import { createFromPostgresTemplate } from './db-template.ts';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates `<prefix>_<random>`, migrated and empty, on the server of `base` and returns its URL. */
export async function createFreshPostgres(base: string, prefix: string): Promise<FreshDatabase> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await createFromPostgresTemplate(admin, base, name);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
