// Admins, hospitals and doctor tokens: who the staff are and which hospitals they may see.
import { and, asc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { adminHospitals, admins, doctorTokens, hospitalGroups, hospitals } from '../db/schema.ts';

export type AdminRow = typeof admins.$inferSelect;
export type HospitalRow = typeof hospitals.$inferSelect;
export type DoctorTokenRow = typeof doctorTokens.$inferSelect;

export const staffRepo = {
  async adminByEmail(db: Db, email: string): Promise<AdminRow | undefined> {
    const [row] = await db.select().from(admins).where(eq(admins.email, email.toLowerCase())).limit(1);
    return row;
  },

  async adminById(db: Db, id: string): Promise<AdminRow | undefined> {
    const [row] = await db.select().from(admins).where(eq(admins.id, id)).limit(1);
    return row;
  },

  async insertAdmin(db: Db, values: typeof admins.$inferInsert): Promise<AdminRow> {
    const [row] = await db
      .insert(admins)
      .values({ ...values, email: values.email.toLowerCase() })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  async setAdminPassword(db: Db, id: string, passwordHash: string): Promise<void> {
    await db.update(admins).set({ passwordHash, updatedAt: new Date() }).where(eq(admins.id, id));
  },

  async grantHospitals(db: Db, adminId: string, hospitalIds: string[]): Promise<void> {
    if (hospitalIds.length === 0) return;
    await db
      .insert(adminHospitals)
      .values(hospitalIds.map((hospitalId) => ({ adminId, hospitalId })))
      .onConflictDoNothing();
  },

  /**
   * Of the hospitals in `within`, the admin keeps exactly `granted`; the admin's other hospitals are
   * left as they are (an identity provider's word on the hospitals it signs staff into).
   */
  async setHospitalsWithin(db: Db, adminId: string, within: string[], granted: string[]): Promise<void> {
    const withdrawn = within.filter((id) => !granted.includes(id));
    if (withdrawn.length > 0) await db.delete(adminHospitals).where(and(eq(adminHospitals.adminId, adminId), inArray(adminHospitals.hospitalId, withdrawn)));
    await this.grantHospitals(db, adminId, granted);
  },

  async hospitalsOfAdmin(db: Db, adminId: string): Promise<HospitalRow[]> {
    return db
      .select({ hospital: hospitals })
      .from(adminHospitals)
      .innerJoin(hospitals, eq(hospitals.id, adminHospitals.hospitalId))
      .where(eq(adminHospitals.adminId, adminId))
      .orderBy(asc(hospitals.name))
      .then((rows) => rows.map((r) => r.hospital));
  },

  async adminEmailsOfHospital(db: Db, hospitalId: string): Promise<string[]> {
    const rows = await db
      .select({ email: admins.email })
      .from(adminHospitals)
      .innerJoin(admins, eq(admins.id, adminHospitals.adminId))
      .where(eq(adminHospitals.hospitalId, hospitalId));
    return rows.map((r) => r.email);
  },

  async hospitalsByIds(db: Db, ids: string[]): Promise<HospitalRow[]> {
    if (ids.length === 0) return [];
    return db.select().from(hospitals).where(inArray(hospitals.id, ids)).orderBy(asc(hospitals.name));
  },

  async hospitalByName(db: Db, name: string): Promise<HospitalRow | undefined> {
    const [row] = await db.select().from(hospitals).where(eq(hospitals.name, name)).limit(1);
    return row;
  },

  async insertHospital(db: Db, values: typeof hospitals.$inferInsert): Promise<HospitalRow> {
    const [row] = await db.insert(hospitals).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  async updateHospital(db: Db, id: string, values: Partial<typeof hospitals.$inferInsert>): Promise<HospitalRow | undefined> {
    const [row] = await db
      .update(hospitals)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(hospitals.id, id))
      .returning();
    return row;
  },

  async ensureGroup(db: Db, name: string): Promise<string> {
    await db.insert(hospitalGroups).values({ name }).onConflictDoNothing();
    const [row] = await db.select().from(hospitalGroups).where(eq(hospitalGroups.name, name)).limit(1);
    if (!row) throw new Error('hospital group missing after insert');
    return row.id;
  },

  async insertDoctorToken(db: Db, values: typeof doctorTokens.$inferInsert): Promise<DoctorTokenRow> {
    const [row] = await db.insert(doctorTokens).values(values).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  },

  async liveDoctorToken(db: Db, tokenHash: string, now: Date): Promise<DoctorTokenRow | undefined> {
    const [row] = await db
      .select()
      .from(doctorTokens)
      .where(and(eq(doctorTokens.tokenHash, tokenHash), isNull(doctorTokens.revokedAt), gt(doctorTokens.expiresAt, now)))
      .limit(1);
    return row;
  },

  async doctorTokens(db: Db): Promise<DoctorTokenRow[]> {
    return db.select().from(doctorTokens).orderBy(asc(doctorTokens.createdAt));
  },

  async doctorTokenById(db: Db, id: string): Promise<DoctorTokenRow | undefined> {
    const [row] = await db.select().from(doctorTokens).where(eq(doctorTokens.id, id)).limit(1);
    return row;
  },

  async revokeDoctorToken(db: Db, id: string): Promise<void> {
    await db
      .update(doctorTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(doctorTokens.id, id), isNull(doctorTokens.revokedAt)));
  },
};
