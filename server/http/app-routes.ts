// The pages of the web app (src/routes, TanStack Router's file routes; app-routes.test.ts keeps this
// list equal to src/route-tree.gen.ts). A GET for one of them gets the app's page (200); a mistyped
// page under /app/ or /admin/ gets the same page with 404, so the app shows its "page not found";
// any other path without a file is a plain 404 (issue 48: /.env and /.git/config answered 200 with
// the app, and monitoring that scrapes /metrics must not get a page).
/** The languages with a path prefix: src/lib/locales.ts's LOCALES but the source one (app-routes.test.ts keeps them equal). */
export const PREFIXED_LOCALES: readonly string[] = ['es', 'fr', 'hi', 'ar'];

export const APP_PAGES: readonly string[] = [
  '/',
  '/auth',
  '/privacy',
  '/app',
  '/app/profile',
  '/app/readings',
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

/** The path without its language prefix (/es/app is /app in Spanish: src/router.tsx), as the router reads it. */
function withoutLocale(pathname: string): string {
  const first = pathname.split('/')[1];
  if (!first || !PREFIXED_LOCALES.includes(first)) return pathname;
  return pathname.slice(first.length + 1) || '/';
}

/** Whether `pathname` (no query) is a page of the app, in any language; a trailing slash does not matter. */
export function isAppPage(pathname: string): boolean {
  const bare = withoutLocale(pathname);
  return pages.has(bare.length > 1 ? bare.replace(/\/+$/, '') || '/' : bare);
}

/** A path under the app's own sections (/app/…, /admin/…) that is no page of it: a mistyped link, no dotfile. */
export function isInAppSection(pathname: string): boolean {
  return /^\/(?:app|admin)\//.test(withoutLocale(pathname)) && !pathname.split('/').some((segment) => segment.startsWith('.'));
}
