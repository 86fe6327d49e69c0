import type { TypedApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import { adminAuthRoutes } from './admin-auth.ts';
import { adminOidcRoutes } from './admin-oidc.ts';
import { adminManageRoutes } from './admin-manage.ts';
import { authRoutes } from './auth.ts';
import { batchRoutes } from './batch.ts';
import { changesRoutes } from './changes.ts';
import { consentRoutes } from './consent.ts';
import { healthRoutes } from './health.ts';
import { historyRoutes } from './history.ts';
import { iconRoutes } from './icons.ts';
import { medicineRoutes } from './medicines.ts';
import { profileRoutes } from './profile.ts';
import { pushRoutes } from './push.ts';
import { recordRoutes } from './records.ts';
import { reportRoutes } from './report.ts';

export function registerRoutes(api: TypedApp, ctx: AppContext): void {
  healthRoutes(api, ctx);
  iconRoutes(api, ctx);
  authRoutes(api, ctx);
  profileRoutes(api, ctx);
  recordRoutes(api, ctx);
  medicineRoutes(api, ctx);
  batchRoutes(api, ctx);
  historyRoutes(api, ctx);
  changesRoutes(api, ctx);
  reportRoutes(api, ctx);
  pushRoutes(api, ctx);
  consentRoutes(api, ctx);
  adminAuthRoutes(api, ctx);
  adminOidcRoutes(api, ctx);
  adminManageRoutes(api, ctx);
}
