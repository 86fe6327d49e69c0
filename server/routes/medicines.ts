import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { sinceQuery } from '../../schemas/common.ts';
import { medicineTakenSchema, remindLaterSchema } from '../../schemas/medicine.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import * as medicines from '../services/medicine-service.ts';
import { parseSince } from '../services/record-helpers.ts';

export function medicineRoutes(api: TypedApp, ctx: AppContext): void {
  const read = { preHandler: patientAccess(ctx, { write: false }), schema: { querystring: sinceQuery } };

  api.get('/users/medicines', read, async (req) => medicines.activeMedicines(ctx, requireSubject(req), parseSince(req.query.since)));

  // The path really is singular `user` here (spec §7).
  api.post('/user/medicines/taken', { preHandler: patientAccess(ctx, { write: true }), schema: { body: medicineTakenSchema } }, async (req) =>
    medicines.markTaken(ctx, requireSubject(req).patientId, req.body),
  );
  api.post('/users/medicines/remindLater', { preHandler: patientAccess(ctx, { write: true }), schema: { body: remindLaterSchema } }, async (req) =>
    medicines.remindLater(ctx, requireSubject(req).patientId, req.body),
  );
  api.get('/user/medicines/taken', read, async (req) => medicines.intakes(ctx, requireSubject(req).patientId, parseSince(req.query.since)));
}
