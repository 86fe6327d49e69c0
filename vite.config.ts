import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app. The API server serves dist/ in production; in development Vite proxies /api to it.
export default defineConfig({
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/route-tree.gen.ts' }),
    react(),
    // Lingui's macros (t`…`, <Trans>) are compiled by Babel; everything else by Oxc. The English
    // source text stays in the bundle, so a message missing from a catalog reads in English rather
    // than as its hashed id (a test keeps the catalogs complete all the same).
    babel({ plugins: [['@lingui/babel-plugin-lingui-macro', { descriptorFields: 'message' }]] }),
    lingui(),
  ],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: { outDir: 'dist', sourcemap: true, target: 'es2022' },
});
