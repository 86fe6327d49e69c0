import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { glucometerAlertSchema, notificationTimingsSchema, notificationTokenRemoveSchema, notificationTokenSchema } from '../../schemas/user-profile.ts';
import { deviceIdOf, patientAccess, requireSubject } from '../http/guards.ts';
import { answerWrite } from '../http/mutation-reply.ts';
import { ok } from '../services/mutations.ts';
import * as profile from '../services/profile-service.ts';

export function profileRoutes(api: TypedApp, ctx: AppContext): void {
  const read = { preHandler: patientAccess(ctx, { write: false }) };
  const write = { preHandler: patientAccess(ctx, { write: true }) };

  // Spec §7 calls `GET /users/` with the slash; without it is accepted too.
  api.get('/users/', read, async (req) => profile.profile(ctx, requireSubject(req).patientId));
  api.get('/users', read, async (req) => profile.profile(ctx, requireSubject(req).patientId));

  api.post('/users/notificationToken', { ...write, schema: { body: notificationTokenSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.saveNotificationToken(tx, s.patientId, req.body, deviceIdOf(req)))),
  );
  api.post('/users/notificationToken/remove', { ...write, schema: { body: notificationTokenRemoveSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.removeNotificationToken(tx, s.patientId, req.body))),
  );
  api.post('/users/notificationTimings', { ...write, schema: { body: notificationTimingsSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.saveTimings(tx, s.patientId, req.body))),
  );
  api.post('/users/glucometerAlerts', { ...write, schema: { body: glucometerAlertSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.changeAlertDay(tx, s.patientId, req.body.day, 'add'))),
  );
  api.post('/users/glucometerAlerts/remove', { ...write, schema: { body: glucometerAlertSchema } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.changeAlertDay(tx, s.patientId, req.body.day, 'remove'))),
  );
}
