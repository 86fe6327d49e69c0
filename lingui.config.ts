import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * What the login pages (patient and staff) and the app's shell say: the `login` catalog, the only
 * one those pages load (src/lib/i18n.ts; the performance budget of the login route). Everything
 * else is in `messages`, which every other page loads first. A file listed here that a page past
 * login also uses is fine: such a page has both catalogs.
 */
const LOGIN_ROUTE = [
  'src/main.tsx',
  'src/router.tsx',
  'src/routes/__root.tsx',
  'src/routes/_login.tsx',
  'src/routes/_login/index.tsx',
  'src/routes/_login/admin',
  'src/routes/auth.tsx',
  'src/components/error-pages.tsx',
  'src/components/icon.tsx',
  'src/components/language-select.tsx',
  'src/components/loader-overlay.tsx',
  'src/components/page-title.tsx',
  'src/components/scroll-to-top.tsx',
  'src/components/text-field.tsx',
  'src/components/toaster.tsx',
  'src/features/auth',
  'src/features/consent',
  'src/features/staff-auth',
  'src/lib/i18n.ts',
  'src/lib/pwa.ts',
  'src/lib/runtime.ts',
  'src/lib/staff-runtime.ts',
  'src/lib/ui',
  'sync/api-client.ts',
  'sync/session.ts',
  'sync/staff-session.ts',
  'sync/storage/secure-storage.ts',
];
// Tests are left out: their made-up messages are not the app's.
const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

// English is the source locale (the spec's messages); every other locale must be complete.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'fr', 'hi', 'ar'],
  catalogs: [
    { path: '<rootDir>/locales/{locale}/login', include: LOGIN_ROUTE, exclude: TESTS },
    { path: '<rootDir>/locales/{locale}/messages', include: ['src', 'sync', 'report'], exclude: [...TESTS, ...LOGIN_ROUTE] },
  ],
  format: formatter({ lineNumbers: false }),
});
