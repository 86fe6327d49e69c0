import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { serverSettings } from '../db/schema.ts';

export const settingsRepo = {
  /** The value stored under `key`, typed `T`: what that key's writer stored (setIfAbsent), unchecked. */
  async get<T>(db: Db, key: string): Promise<T | undefined> {
    const [row] = await db.select().from(serverSettings).where(eq(serverSettings.key, key)).limit(1);
    // The value column is JSON of any shape: each key has one writer, and its reader names the type.
    return row?.value as T | undefined;
  },
  /** Sets the value only if the key is new; returns whether it was set (first writer wins). */
  async setIfAbsent(db: Db, key: string, value: unknown): Promise<boolean> {
    const rows = await db.insert(serverSettings).values({ key, value }).onConflictDoNothing().returning();
    return rows.length === 1;
  },
};
