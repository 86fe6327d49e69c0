import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { ErrorPage, NotFoundPage } from '../components/error-pages.tsx';
import { LoaderOverlay, useLoaderVisible } from '../components/loader-overlay.tsx';
import { ScrollToTop } from '../components/scroll-to-top.tsx';
import { Toaster } from '../components/toaster.tsx';
import { CookieConsent } from '../features/consent/cookie-consent.tsx';
import { ensureFullCatalog, LOGIN_PAGES } from '../lib/i18n.ts';
import type { Runtime } from '../lib/runtime.ts';
import type { StaffRuntime } from '../lib/staff-runtime.ts';
import { loadBundledIcons } from '../lib/ui/icons/custom-icons.ts';

/** What every route's beforeLoad is given (src/router.tsx): the app's two runtimes. */
export interface RouterContext {
  runtime: Runtime;
  staffRuntime: StaffRuntime;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // The login pages show with the login part of the catalog and the shell's icons; every other page
  // waits for the rest of both (the performance budget of the login route).
  beforeLoad: async ({ location }) => {
    if (!LOGIN_PAGES.has(location.pathname)) await Promise.all([ensureFullCatalog(), loadBundledIcons()]);
  },
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

// App shell (docs/requirements.md §2): the routed page, the toasts, the cookie banner and the global loader. While the loader shows,
// the page behind is inert, so keyboard focus cannot wander to controls the overlay hides.
function RootLayout() {
  const busy = useLoaderVisible();
  return (
    <>
      <div className="app-shell" inert={busy} aria-busy={busy || undefined}>
        <Outlet />
      </div>
      <Toaster />
      <CookieConsent />
      <LoaderOverlay />
      <ScrollToTop />
    </>
  );
}
