// One patient's review for staff (issue 46): everything the review screen shows, read in one
// read-only snapshot (REPEATABLE READ), so the profile, the lists and the version they reflect are one
// moment of the record, whatever the patient's device writes meanwhile. With `since` (a version an
// earlier review of this patient answered), the lists carry only what changed after it, as the
// patient's own pull does (docs/sync-protocol.md): the changed rows and the deleted ids. The caller
// audits the read once, naming the patient this returns (routes/admin-manage.ts).
import type { AppContext } from '../../context.ts';
import { JsonText } from '../../http/json-text.ts';
import { patientRepo } from '../../repositories/patients.ts';
import { listAppointments } from '../appointment-service.ts';
import { listGlucose } from '../glucose-service.ts';
import { listLabTests } from '../lab-test-service.ts';
import { intakes } from '../medicine-service.ts';
import { profile } from '../profile-service.ts';
import { listSymptoms } from '../symptom-service.ts';
import type { StaffPrincipal } from '../principal.ts';
import { patientDto } from './patients.ts';
import { prescriptionsOf } from './prescriptions.ts';
import { patientForStaff } from './scope.ts';

/** Every change in one answer: a review is one snapshot, never paged. */
const ALL = 1_000_000_000;

export async function patientReview(
  ctx: AppContext,
  principal: StaffPrincipal,
  hospNo: string,
  since: number | undefined,
): Promise<{ patient: { patientId: string; hospNo: string }; body: JsonText }> {
  return ctx.db.transaction(
    async (tx) => {
      const t: AppContext = { ...ctx, db: tx };
      const p = await patientForStaff(t, principal, hospNo);
      const version = await patientRepo.version(tx, p.id);
      // A version above the patient's own was not given by this database (restored from a backup,
      // or replaced): the device's copy cannot be brought up to date by changes, so it gets it all.
      const full = since === undefined || since > version;
      // Whole: each list as its GET answers it (newest first, no deleted ids); else the changes.
      const from = full ? undefined : { version: since, limit: ALL };
      const lists: [string, JsonText][] = [
        ['glucose', await listGlucose(t, p.id, from)],
        ['symptoms', await listSymptoms(t, p.id, from)],
        ['tests', await listLabTests(t, p.id, from)],
        ['appointments', await listAppointments(t, p.id, from)],
        ['doses', await intakes(t, p.id, from)],
      ];
      // The patient's record as admins edit it (its version is the base of an edit) rides along, so
      // the review's management panel reads nothing more.
      const head = {
        hospNo: p.hospNo,
        version,
        asOf: new Date().toISOString(),
        full,
        profile: (await profile(t, p.id)).user,
        patient: patientDto(p),
        prescriptions: await prescriptionsOf(t, p),
      };
      const parts = lists.map(([key, list]) => `${JSON.stringify(key)}:${list.text.toString()}`);
      return { patient: { patientId: p.id, hospNo: p.hospNo }, body: new JsonText(`${JSON.stringify(head).slice(0, -1)},${parts.join(',')}}`) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
