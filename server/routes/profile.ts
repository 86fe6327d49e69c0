import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { MUTATIONS } from '../../schemas/mutations.ts';
import { notificationTokenRemoveSchema } from '../../schemas/user-profile.ts';
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

  // The writes a device queues: their paths and bodies are the registry's (schemas/mutations.ts).
  const register = MUTATIONS['push.register'];
  api.post(
    register.path,
    { ...write, schema: { summary: "Register this device's push subscription (or FCM token) for reminders", body: register.body, response: answers(message) } },
    async (req, reply) => answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.saveNotificationToken(tx, s.patientId, req.body, deviceIdOf(req)))),
  );
  api.post(
    '/users/notificationToken/remove',
    { ...write, schema: { summary: "Remove a device's push registration", body: notificationTokenRemoveSchema, response: answers(message) } },
    async (req, reply) => answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.removeNotificationToken(tx, s.patientId, req.body))),
  );
  // One route for both meal-time writes: the first whole set (profile.setMealTimes) and each change (profile.setMealTime).
  const mealTimes = MUTATIONS['profile.setMealTime'];
  api.post(
    mealTimes.path,
    { ...write, schema: { summary: 'Save the meal times reminders follow', body: mealTimes.body, response: answers(timingsSaved) } },
    async (req, reply) => answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.saveTimings(tx, s.patientId, req.body))),
  );
  const addDay = MUTATIONS['profile.addGlucometerDay'];
  api.post(addDay.path, { ...write, schema: { summary: 'Add a glucometer day', body: addDay.body, response: answers(alertDaysSaved) } }, async (req, reply) =>
    answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.changeAlertDay(tx, s.patientId, req.body.day, 'add'))),
  );
  const removeDay = MUTATIONS['profile.removeGlucometerDay'];
  api.post(
    removeDay.path,
    { ...write, schema: { summary: 'Remove a glucometer day', body: removeDay.body, response: answers(alertDaysSaved) } },
    async (req, reply) => answerWrite(ctx, req, reply, async (tx, s) => ok(await profile.changeAlertDay(tx, s.patientId, req.body.day, 'remove'))),
  );
}
