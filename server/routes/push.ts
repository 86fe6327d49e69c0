import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, message, pushConfig } from '../../schemas/api.ts';
import { notificationTokenRemoveSchema, notificationTokenSchema } from '../../schemas/user-profile.ts';
import { requireStaff, staffAccess } from '../http/guards.ts';
import { publicPushConfig } from '../push/settings.ts';
import { turnAlertsOff, turnAlertsOn } from '../services/staff-alert-service.ts';

export function pushRoutes(api: TypedApp, ctx: AppContext): void {
  // Public keys only: a browser needs them before anyone logs in on it.
  api.get('/push/config', { schema: { summary: "The server's public push keys (VAPID, FCM web config)", response: answers(pushConfig) } }, async () =>
    publicPushConfig(ctx.push),
  );

  // Severe-low alerts to staff devices (issue 18): admins and doctors alike.
  const staff = { preHandler: staffAccess(ctx, { adminOnly: false }) };
  api.post(
    '/admin/alerts/on',
    {
      ...staff,
      schema: {
        summary: "Send this staff device a push when a patient of the staff member's hospitals records a severe low",
        body: notificationTokenSchema,
        response: answers(message),
      },
    },
    async (req) => turnAlertsOn(ctx, requireStaff(req), req.body),
  );
  api.post(
    '/admin/alerts/off',
    { ...staff, schema: { summary: 'Stop the severe-low alerts to this staff device', body: notificationTokenRemoveSchema, response: answers(message) } },
    async (req) => turnAlertsOff(ctx, requireStaff(req), req.body),
  );
}
