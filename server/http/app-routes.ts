// The pages of the web app (src/routes, TanStack Router's file routes; app-routes.test.ts keeps this
// list equal to src/route-tree.gen.ts). A GET for one of them gets the app's page (200); any other
// path without a file gets the same page with 404 (issue 48): the app shows its "page not found",
// and a scanner asking for /.env or /.git/config learns that nothing is there.
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
