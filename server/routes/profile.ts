import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { glucometerAlertSchema, notificationTimingsSchema, notificationTokenRemoveSchema, notificationTokenSchema } from '../../schemas/user-profile.ts';
import { alertDaysSaved, answers, message, profile as profileAnswer, timingsSaved } from '../../schemas/api.ts';
import { deviceIdOf, patientAccess, requireSubject } from '../http/guards.ts';
import { answerWrite } from '../http/mutation-reply.ts';
import { ok } from '../services/mutations.ts';
import * as profile from '../services/profile-service.ts';

export function profileRoutes(api: TypedApp, ctx: AppContext): void {
  const read = { preHandler: patientAccess(ctx, { write: false }) };
  const write = { preHandler: patientAccess(ctx, { write: true }) };

  // docs/requirements.md §7 calls `GET /users/` with the slash; without it is accepted too.
  const profileSchema = { schema: { summary: "The patient's profile", response: answers(profileAnswer) } };
  api.get('/users/', { ...read, ...profileSchema }, async (req) => profile.profile(ctx, requireSubject(req).patientId));
  api.get('/users', { ...read, ...profileSchema }, async (req) => profile.profile(ctx, requireSubject(req).patientId));

  api.post('/users/notificationToken', { ...write, schema: { summary: "Register this device's push subscription (or FCM token) for reminders", body: notificationTokenSchema, response: answers(message) } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.saveNotificationToken(tx, s.patientId, req.body, deviceIdOf(req)))),
  );
  api.post('/users/notificationToken/remove', { ...write, schema: { summary: "Remove a device's push registration", body: notificationTokenRemoveSchema, response: answers(message) } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.removeNotificationToken(tx, s.patientId, req.body))),
  );
  api.post('/users/notificationTimings', { ...write, schema: { summary: 'Save the meal times reminders follow', body: notificationTimingsSchema, response: answers(timingsSaved) } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.saveTimings(tx, s.patientId, req.body))),
  );
  api.post('/users/glucometerAlerts', { ...write, schema: { summary: 'Add a glucometer day', body: glucometerAlertSchema, response: answers(alertDaysSaved) } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.changeAlertDay(tx, s.patientId, req.body.day, 'add'))),
  );
  api.post('/users/glucometerAlerts/remove', { ...write, schema: { summary: 'Remove a glucometer day', body: glucometerAlertSchema, response: answers(alertDaysSaved) } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.changeAlertDay(tx, s.patientId, req.body.day, 'remove'))),
  );
}
