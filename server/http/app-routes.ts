// The pages of the web app (src/routes, TanStack Router's file routes; app-routes.test.ts keeps this
// list equal to src/route-tree.gen.ts). A GET for one of them gets the app's page (200); a mistyped
// page under /app/ or /admin/ gets the same page with 404, so the app shows its "page not found";
// any other path without a file is a plain 404 (issue 48: /.env and /.git/config answered 200 with
// the app, and monitoring that scrapes /metrics must not get a page).
export const APP_PAGES: readonly string[] = [
  '/',
  '/auth',
  '/privacy',
  '/app',
  '/app/profile',
  '/app/reports',
  '/app/symptoms',
  '/app/tests',
  '/admin',
  '/admin/login',
  '/admin/hospital-select',
  '/admin/manage',
  '/admin/report',
];

const pages = new Set(APP_PAGES);

/** Whether `pathname` (no query) is a page of the app; a trailing slash does not matter. */
export function isAppPage(pathname: string): boolean {
  return pages.has(pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname);
}

/** A path under the app's own sections (/app/…, /admin/…) that is no page of it: a mistyped link, no dotfile. */
export function isInAppSection(pathname: string): boolean {
  return /^\/(?:app|admin)\//.test(pathname) && !pathname.split('/').some((segment) => segment.startsWith('.'));
}
