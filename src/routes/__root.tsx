import { createRootRoute, Outlet } from '@tanstack/react-router';
import { ErrorPage, NotFoundPage } from '../components/error-pages.tsx';
import { LoaderOverlay, useLoaderVisible } from '../components/loader-overlay.tsx';
import { ScrollToTop } from '../components/scroll-to-top.tsx';
import { Toaster } from '../components/toaster.tsx';
import { CookieConsent } from '../features/consent/cookie-consent.tsx';

export const Route = createRootRoute({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

// App shell (spec §2): the routed page, the toasts, the cookie banner and the global loader. While the loader shows,
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
