import { sql } from 'drizzle-orm';
import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';

export function healthRoutes(api: TypedApp, ctx: AppContext): void {
  api.get('/health', async (_req, reply) => {
    await ctx.db.execute(sql`select 1`);
    void reply.header('cache-control', 'no-store');
    return { status: 'ok', db: ctx.dbKind };
  });
}
