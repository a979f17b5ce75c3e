// Renders pages with src/entry-server.tsx in a Node process of its own, through Vite's dev server, and prints the
// results as JSON: { requests: [{ url, route, data }] } on stdin → [RenderResult] on stdout. The hydration test uses it so
// the server's React never shares a JavaScript realm with the browser's (React's server renderer leaves its context
// values in place, which a client renderer in the same realm would read).
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vite = await createServer({
  root,
  configFile: `${root}/vite.config.ts`,
  appType: 'custom',
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false, ws: false },
  // Node loads styled-components' CommonJS build, whose default export is not the function: take its ES build.
  ssr: { noExternal: ['styled-components'] },
});
try {
  const { render } = await vite.ssrLoadModule('/src/entry-server.tsx');
  const { requests } = JSON.parse(await text(process.stdin));
  const results = [];
  for (const request of requests) results.push(await render(request));
  process.stdout.write(JSON.stringify(results));
} finally {
  await vite.close();
}
