import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// English is the source locale (the spec's messages); every other locale must be complete.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'fr', 'hi', 'ar'],
  // Tests are left out: their made-up messages are not the app's.
  catalogs: [{ path: '<rootDir>/locales/{locale}/messages', include: ['src', 'sync', 'schemas/report'], exclude: ['**/*.test.ts', '**/*.test.tsx'] }],
  format: formatter({ lineNumbers: false }),
});
