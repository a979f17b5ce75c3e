import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in for the client's server renderer (client/src/entry-server.tsx, built to dist/server/entry-server.js):
 * the same `render({ url, data })` → `{ html, styles, state, preloads }`, writing the data it is given as plain
 * markup (escaped, as React would) and handing the data back, unescaped, as its state.
 */
const STAND_IN_RENDERER = `
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
export async function render({ url, data }) {
  const { products, product } = data;
  const body =
    products === 'error' || product === 'error' ? '<p role="alert">error</p>'
    : Array.isArray(products) ? '<ul>' + products.map((p) => '<li>' + escape(p.title) + '</li>').join('') + '</ul>'
    : product === 'not-found' ? '<h1>Product not found</h1>'
    : product ? '<h1>' + escape(product.title) + '</h1><p>' + escape(product.description) + '</p>'
    : '<h1>Page Not Found</h1>';
  return {
    html: '<main data-url="' + escape(url) + '">' + body + '</main>',
    styles: '<style data-styled="active">.stand-in{color:red}</style>',
    state: JSON.stringify({ url, data }),
    preloads: ['/assets/index-abc123.js'],
  };
}
`;

/**
 * A built-looking client: index.html (with the markers pages are rendered into), a stand-in server renderer, one
 * hashed asset, and a secret file next to (outside) the folder.
 */
export function createStaticDir(): { staticDir: string; secret: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'catalogue-static-'));
  const staticDir = join(root, 'dist');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  mkdirSync(join(staticDir, 'server'));
  writeFileSync(
    join(staticDir, 'index.html'),
    '<!doctype html><html><head><title>Catalogue</title><meta name="description" content="The bare app."><!--app-head--></head>' +
      '<body><div id="root"><!--app-html--></div></body></html>',
  );
  writeFileSync(join(staticDir, 'server', 'entry-server.js'), STAND_IN_RENDERER);
  writeFileSync(join(staticDir, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(2000))});`);
  writeFileSync(join(staticDir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const secret = 'SECRET-OUTSIDE-STATIC-DIR';
  writeFileSync(join(root, 'secret.txt'), secret);
  return { staticDir, secret, remove: () => rmSync(root, { recursive: true, force: true }) };
}
