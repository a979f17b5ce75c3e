// How much JavaScript each route makes the browser download, gzip'd: measured by loading the route in
// Chromium and adding up the scripts it actually fetched (entry, modulepreloads and lazy route chunks alike),
// which stays right however the build splits its chunks.
import { gzipSync } from 'node:zlib';

export const ROUTE_BUDGETS = [
  { path: '/', budgetKb: 150 },
  { path: '/products', budgetKb: 120 },
];

/**
 * Loads `origin + path` in a fresh context (empty cache) until the network is idle and returns the scripts it
 * fetched from the site, each with its gzip size (zlib's default level, what `compression()` sends).
 */
export async function measureRouteScripts(browser, origin, path) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      const isScript = response.request().resourceType() === 'script' || url.pathname.endsWith('.js');
      if (isScript && url.origin === origin && response.status() === 200) scripts.push(response);
    });
    await page.goto(origin + path, { waitUntil: 'networkidle', timeout: 30_000 });
    const sized = [];
    for (const response of scripts) {
      const body = await response.body();
      sized.push({ path: new URL(response.url()).pathname, bytes: body.length, gzipBytes: gzipSync(body).length });
    }
    return sized;
  } finally {
    await context.close();
  }
}
