// Who is calling. A bearer token is either a session (patient or admin) or a doctor token; only
// hashes are stored, so a leaked database does not leak usable tokens.
import type { Db } from '../db/client.ts';
import { sha256 } from '../lib/crypto.ts';
import { sessionRepo, type SessionPatient } from '../repositories/sessions.ts';
import { staffRepo } from '../repositories/staff.ts';
import { renewedExpiry } from './session-policy.ts';

export type Principal =
  | {
      kind: 'patient';
      sessionId: string;
      patientId: string;
      patient: SessionPatient;
      expiresAt: Date;
      lastSeenAt: Date;
      deviceId: string | null;
      /** Opened with a temporary password not yet changed: this session may only change it (issue 48). */
      passwordChangeRequired: boolean;
    }
  | {
      kind: 'admin';
      sessionId: string;
      adminId: string;
      label: string;
      hospitalIds: string[];
      expiresAt: Date;
      /** May add hospitals (admins.group_admin). */ groupAdmin: boolean;
    }
  | {
      kind: 'doctor';
      doctorTokenId: string;
      label: string;
      hospitalIds: string[];
      expiresAt: Date;
      /** The identity provider the doctor signed in through (a session that ends at logout), or null for a doctor link. */
      providerId: string | null;
    };

/** The method of a session opened with a temporary password staff set (mustChangePassword); 'password' once changed. */
export const TEMPORARY_PASSWORD_METHOD = 'temporary-password';

export type StaffPrincipal = Extract<Principal, { kind: 'admin' | 'doctor' }>;

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,512})\s*$/i.exec(header);
  return m?.[1];
}

export async function resolvePrincipal(db: Db, token: string | undefined, now = new Date()): Promise<Principal | null> {
  if (!token) return null;
  const hash = sha256(token);
  const session = await sessionRepo.liveByHash(db, hash, now);
  if (session?.kind === 'patient' && session.patientId) {
    // A session whose patient is gone (deleted) opens nothing.
    if (!session.patient) return null;
    // A patient session in use slides forward (session-policy.ts); the caller sees the new end.
    const renewed = renewedExpiry(session, now);
    if (renewed) await sessionRepo.extend(db, session.id, renewed);
    return {
      kind: 'patient',
      sessionId: session.id,
      patientId: session.patientId,
      patient: session.patient,
      expiresAt: renewed ?? session.expiresAt,
      lastSeenAt: session.lastSeenAt,
      deviceId: session.deviceId,
      passwordChangeRequired: session.method === TEMPORARY_PASSWORD_METHOD,
    };
  }
  if (session?.kind === 'admin' && session.adminId) {
    const admin = await staffRepo.adminById(db, session.adminId);
    if (!admin) return null;
    const hospitals = await staffRepo.hospitalsOfAdmin(db, admin.id);
    return {
      kind: 'admin',
      sessionId: session.id,
      adminId: admin.id,
      label: admin.email,
      hospitalIds: hospitals.map((h) => h.id),
      expiresAt: session.expiresAt,
      groupAdmin: admin.groupAdmin,
    };
  }
  const doctor = await staffRepo.liveDoctorToken(db, hash, now);
  if (doctor) {
    return {
      kind: 'doctor',
      doctorTokenId: doctor.id,
      label: doctor.doctorName,
      hospitalIds: doctor.hospitalIds,
      expiresAt: doctor.expiresAt,
      providerId: doctor.providerId,
    };
  }
  return null;
}

const TOUCH_EVERY_MS = 60_000;

/**
 * A patient's session keeps when it was last used (at most once a minute, for the staff's "last
 * synced") and from which device: written when a minute has passed or the device is another.
 */
export async function notePatientSeen(
  db: Db,
  principal: Extract<Principal, { kind: 'patient' }>,
  deviceId: string | undefined,
  now = Date.now(),
): Promise<void> {
  if (now - principal.lastSeenAt.getTime() > TOUCH_EVERY_MS || (deviceId && deviceId !== principal.deviceId)) {
    await sessionRepo.touch(db, principal.sessionId, deviceId);
  }
}
