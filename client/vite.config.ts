import react from '@vitejs/plugin-react';
import { defaultClientConditions, defaultServerConditions, defineConfig, type Plugin } from 'vite';

/**
 * React Router creates its components and contexts at the top of its module (`var NavLink = React.forwardRef(…)`,
 * `NavLink.displayName = "NavLink"`) without marking them pure, so the bundler keeps every one of them, used or not:
 * `<Link>` and `<NavLink>` with framework mode's prefetching and route discovery, `<Form>`, the data router's
 * contexts. Marked pure and without their DevTools names, only what the app uses is bundled (docs/performance.md,
 * "Filters and the search in the bar": about 4 KB gzip less on every page). The app links through its own
 * `AppLink` (src/components/app-link.tsx), which needs none of that.
 */
function routerComponentsPure(): Plugin {
  return {
    name: 'catalogue:react-router-pure',
    transform(code, id) {
      if (!id.includes('/node_modules/react-router/')) return null;
      return code
        .replace(/= (React\d*)\.(forwardRef|memo|createContext)\(/g, '= /* @__PURE__ */ $1.$2(')
        .replace(/^\w+\.displayName = "\w+";$/gm, '');
    },
  };
}

/**
 * Two builds (`npm run build`): the browser app into dist/, with a manifest the server reads to preload a page's
 * chunk, then (`--ssr`) src/entry-server.tsx into dist/server/, the render function the server calls for each page.
 */
export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react(), routerComponentsPure()],
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
