// Rendering the consent components in tests: inside Lingui and a router (the banner links to /privacy),
// with the browser parts jsdom lacks.
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';

export function renderInApp(node: ReactNode) {
  if (!i18n.locale) i18n.loadAndActivate({ locale: 'en', messages: {} });
  // The router scrolls to the top after navigation; jsdom has no matchMedia.
  window.scrollTo = () => undefined;
  window.matchMedia ??= (query: string) =>
    ({ matches: false, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;
  const rootRoute = createRootRoute({ component: () => <>{node}</> });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
  return render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
}

export function clearConsentStorage(): void {
  localStorage.clear();
  for (const name of ['c15t-consent', 'privacy-consent-storage']) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
