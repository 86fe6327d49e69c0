import { defineConfig } from 'drizzle-kit';

// Used only by `npm run db:generate` to write the next numbered migration from server/db/schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
