// POST /api/sync/history: the device's check that the server still holds the history it has seen
// (docs/sync-protocol.md, "A restored server"; server/services/history-marks.ts).
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, historyAnswer } from '../../schemas/api.ts';
import { historyCheckSchema } from '../../schemas/history.ts';
import { patientAccess, requireSubject } from '../http/guards.ts';
import { checkHistory } from '../services/history-marks.ts';

export function historyRoutes(api: TypedApp, ctx: AppContext): void {
  api.post(
    '/sync/history',
    {
      preHandler: patientAccess(ctx, { write: true }),
      schema: {
        summary: "Whether the server still holds what this device has seen (a restored database does not); answers the device's next mark",
        body: historyCheckSchema,
        response: answers(historyAnswer),
      },
    },
    async (req) => checkHistory(ctx.db, requireSubject(req).patientId, req.body),
  );
}
