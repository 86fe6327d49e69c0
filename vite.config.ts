import { lingui } from '@lingui/vite-plugin';
import optimizeLocales from '@react-aria/optimize-locales-plugin';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { pdfmakeBidi } from './scripts/pdfmake-bidi-plugin.ts';

// The web app. The API server serves dist/ in production; in development Vite proxies /api to it.
export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/route-tree.gen.ts' }),
    react(),
    // Lingui's macros (t`…`, <Trans>) are compiled by Babel; everything else by Oxc. Messages are
    // looked up by id in the catalogs, which a test keeps complete (run `npm run i18n:extract`).
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    // React Aria (the date and time fields) carries its few words in 34 languages: only the app's are
    // kept. It has no Hindi: a Hindi page's fields take their part names from the browser
    // (Intl.DisplayNames) and React Aria's English for the rest.
    optimizeLocales.vite({ locales: ['en-US', 'es-ES', 'fr-FR', 'ar-AE'] }),
  ],
  // broadcast-channel's leader election gives up leadership on `unload` (the `unload` package):
  // deprecated, and it keeps pages out of the back/forward cache. src/lib/page-exit.ts does the same
  // on `pagehide`.
  resolve: { alias: { unload: fileURLToPath(new URL('./src/lib/page-exit.ts', import.meta.url)) } },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: { outDir: 'dist', sourcemap: 'hidden', target: 'es2022' },
  // The report's PDF worker is started as a module worker (src/features/reports/generate-pdf.ts);
  // its pdfmake gets the right-to-left hook (scripts/pdfmake-bidi-plugin.ts).
  worker: { format: 'es', plugins: () => [pdfmakeBidi()] },
});
