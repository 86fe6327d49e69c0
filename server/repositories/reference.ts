import { asc } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { labTestReference, symptomReference } from '../db/schema.ts';

export const referenceRepo = {
  async symptomNames(db: Db): Promise<string[]> {
    const rows = await db.select().from(symptomReference).orderBy(asc(symptomReference.name));
    return rows.map((r) => r.name);
  },
  async labTests(db: Db) {
    return db.select().from(labTestReference).orderBy(asc(labTestReference.name));
  },
};
