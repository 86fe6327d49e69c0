import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { publicPushConfig } from '../push/settings.ts';

export function pushRoutes(api: TypedApp, ctx: AppContext): void {
  // Public keys only: a browser needs them before anyone logs in on it.
  api.get('/push/config', async () => publicPushConfig(ctx.push));
}
