import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, intakeList, medicineList, remindLater } from '../../schemas/api.ts';
import { sinceQuery } from '../../schemas/common.ts';
import { medicineListQuery } from '../../schemas/medicine.ts';
import { MUTATIONS } from '../../schemas/mutations.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import { sendJsonText } from '../http/json-text.ts';
import { answerWrite } from '../http/mutation-reply.ts';
import * as medicines from '../services/medicine-service.ts';
import { ok } from '../services/mutations.ts';
import { parseSince } from '../services/record-helpers.ts';
import { postPatientWrite } from './patient-writes.ts';

export function medicineRoutes(api: TypedApp, ctx: AppContext): void {
  const read = (summary: string, response: Readonly<Record<string, unknown>>) => ({
    preHandler: patientAccess(ctx, { write: false }),
    schema: { summary, querystring: sinceQuery, response: answers(response) },
  });
  const write = { preHandler: patientAccess(ctx, { write: true }) };

  api.get(
    '/users/medicines',
    {
      preHandler: patientAccess(ctx, { write: false }),
      schema: {
        summary: 'The active medicines (prescriptions), or every one with ?include=ended; incremental with ?since=',
        querystring: medicineListQuery,
        response: answers(medicineList),
      },
    },
    async (req) => {
      const since = parseSince(req.query.since, req.query.limit);
      const subject = requireSubject(req);
      return req.query.include === 'ended' ? medicines.everyPrescription(ctx, subject.patientId, since) : medicines.activeMedicines(ctx, subject, since);
    },
  );

  // The path really is singular `user` here (docs/requirements.md §7).
  postPatientWrite(api, ctx, 'dose.markTaken');
  postPatientWrite(api, ctx, 'dose.undo');
  const later = MUTATIONS['dose.remindLater'];
  api.post(
    later.path,
    { ...write, schema: { summary: 'Remind again about a dose in a while', body: later.body, response: answers(remindLater) } },
    async (req, reply) => answerWrite(ctx, req, reply, async (tx, s) => ok(await medicines.remindLater(tx, s.patientId, req.body))),
  );
  api.get('/user/medicines/taken', read('The doses marked taken; incremental with ?since=', intakeList), async (req, reply) =>
    sendJsonText(reply, await medicines.intakes(ctx, requireSubject(req).patientId, parseSince(req.query.since, req.query.limit))),
  );
}
