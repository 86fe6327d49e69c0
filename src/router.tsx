import { createRouter } from '@tanstack/react-router';
import { i18n } from '@lingui/core';
import { isLocale, localeOfPath, stripLocale, withLocale } from './lib/i18n.ts';
import { routeTree } from './route-tree.gen.ts';
import type { RouterContext } from './routes/__root.tsx';

// Locale-aware URLs without route parameters: /es/app is /app in Spanish. The router works on
// unprefixed paths; the rewrite adds the prefix of the active locale to every URL it writes.
// The routes reach the app's runtimes through the router's context, as the screens do through React's.
export const createAppRouter = (context: RouterContext) =>
  createRouter({
    routeTree,
    context,
    scrollRestoration: false,
    defaultPreload: 'intent',
    rewrite: {
      input: ({ url }) => {
        if (localeOfPath(url.pathname)) url.pathname = stripLocale(url.pathname);
        return url;
      },
      output: ({ url }) => {
        if (isLocale(i18n.locale)) url.pathname = withLocale(url.pathname, i18n.locale);
        return url;
      },
    },
  });

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
