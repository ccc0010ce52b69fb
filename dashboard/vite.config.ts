/**
 * `npm run build:dashboard`: the single-page app into dashboard/dist. The SDK is compiled from its
 * sources (sdks/typescript/src), so the dashboard always matches the API it ships with.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: here('public'),
  resolve: { alias: { '@messaging-platform/sdk': here('../sdks/typescript/src/index.ts') } },
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    // No inline scripts or data: URLs for scripts: the page runs under script-src 'self'.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 2000,
    sourcemap: false,
    // DASHBOARD_MINIFY=false: readable stack traces when debugging a build.
    minify: process.env.DASHBOARD_MINIFY !== 'false',
    rolldownOptions: {
      // Cloudscape marks its modules 'use client' (for React Server Components); meaningless in this SPA.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
