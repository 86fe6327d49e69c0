// The audit log: every staff read of a patient is written here before the answer leaves (the guards,
// the worklist), and admins read it back for their hospitals, newest first.
import type { AppContext } from '../../context.ts';
import type { AuditQuery } from '../../../schemas/admin.ts';
import { auditRepo } from '../../repositories/audit.ts';
import type { StaffPrincipal } from '../principal.ts';
import type { Admin } from './scope.ts';

/** Where a staff read came from, as the audit log keeps it. */
export interface ReadOrigin {
  ip: string;
  /** At most 300 characters. */
  userAgent: string | null;
}

/** One audit entry per patient, in one statement: a list that shows each patient's figures is a read of each. */
export async function recordReads(
  ctx: AppContext,
  principal: StaffPrincipal,
  patients: readonly { patientId: string; hospNo: string }[],
  action: string,
  origin: ReadOrigin,
): Promise<void> {
  if (patients.length === 0) return;
  const who = {
    actorKind: principal.kind,
    actorId: principal.kind === 'admin' ? principal.adminId : principal.doctorTokenId,
    actorLabel: principal.label,
    action,
    ip: origin.ip,
    userAgent: origin.userAgent,
  };
  await auditRepo.insert(
    ctx.db,
    patients.map((p) => ({ ...who, patientId: p.patientId, hospNo: p.hospNo })),
  );
}

export async function auditEntries(ctx: AppContext, principal: Admin, q: AuditQuery) {
  const rows = await auditRepo.list(ctx.db, {
    hospitalIds: principal.hospitalIds,
    hospNo: q.hospNo,
    before: q.before ? new Date(q.before) : undefined,
    limit: q.limit ?? 100,
  });
  return {
    entries: rows.map((r) => ({
      _id: r.id,
      at: r.at.toISOString(),
      actorKind: r.actorKind,
      actor: r.actorLabel,
      hospNo: r.hospNo,
      action: r.action,
      ip: r.ip,
      userAgent: r.userAgent,
    })),
  };
}
