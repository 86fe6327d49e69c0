import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditLog, patients } from '../db/schema.ts';

export type AuditRow = typeof auditLog.$inferSelect;

export const auditRepo = {
  /** One entry per row, in one statement. */
  async insert(db: Db, rows: (typeof auditLog.$inferInsert)[]): Promise<void> {
    await db.insert(auditLog).values(rows);
  },
  /** Entries about patients of the given hospitals, newest first. */
  async list(db: Db, opts: { hospitalIds: string[]; hospNo?: string | undefined; before?: Date | undefined; limit: number }): Promise<AuditRow[]> {
    if (opts.hospitalIds.length === 0) return [];
    const rows = await db
      .select({ entry: auditLog })
      .from(auditLog)
      .innerJoin(patients, eq(patients.id, auditLog.patientId))
      .where(
        and(
          inArray(patients.hospitalId, opts.hospitalIds),
          opts.hospNo ? eq(auditLog.hospNo, opts.hospNo) : undefined,
          opts.before ? lt(auditLog.at, opts.before) : undefined,
        ),
      )
      .orderBy(desc(auditLog.at))
      .limit(opts.limit);
    return rows.map((r) => r.entry);
  },
};
