import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { answers, pushConfig } from '../../schemas/api.ts';
import { publicPushConfig } from '../push/settings.ts';

export function pushRoutes(api: TypedApp, ctx: AppContext): void {
  // Public keys only: a browser needs them before anyone logs in on it.
  api.get('/push/config', { schema: { summary: "The server's public push keys (VAPID, FCM web config)", response: answers(pushConfig) } }, async () => publicPushConfig(ctx.push));
}
