import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

/**
 * Two builds (`npm run build`): the browser app into dist/, with a manifest the server reads to preload a page's
 * chunk, then (`--ssr`) src/entry-server.tsx into dist/server/, the render function the server calls for each page.
 */
export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react()],
  // @catalogue/shared is bundled from its TypeScript sources (its `source` export condition).
  resolve: { conditions: ['source', ...defaultClientConditions] },
  ssr: {
    resolve: { conditions: ['source', ...defaultServerConditions], externalConditions: ['source'] },
    // The built bundle is self-contained: the server's production install has no React, router or styled-components
    // of its own. (Vite's dev server, which the hydration test renders with, loads them from node_modules.)
    noExternal: command === 'build' || [],
  },
  build: isSsrBuild
    ? { outDir: 'dist/server', emptyOutDir: true, copyPublicDir: false }
    : { outDir: 'dist', emptyOutDir: true, manifest: true },
  // The bundled React picks its production build whatever NODE_ENV the server runs with.
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: { proxy: { '/api': 'http://localhost:3000' } },
}));
