// How much JavaScript each route makes the browser download, gzip'd, and how many bytes of product images:
// measured by loading the route in Chromium and adding up what it actually fetched (entry, modulepreloads and
// lazy route chunks alike; the image variants its srcset chose), which stays right however the build splits its
// chunks and whatever the layout asks for.
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

/** The viewports image bytes are measured at: a phone (its usual 2× screen) and a desktop. */
export const IMAGE_VIEWPORTS = [
  { name: '375 px (2× phone)', viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true },
  { name: '1280 px (1× desktop)', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false },
];

/**
 * The product images `origin + path` downloads on first view, without scrolling: loaded in a fresh context (empty
 * cache) at one of IMAGE_VIEWPORTS until the network is idle. Resolves with each image's URL (path and query),
 * content type and body size.
 */
export async function measureRouteImages(browser, origin, path, { viewport, deviceScaleFactor, isMobile }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch: isMobile });
  try {
    const page = await context.newPage();
    const images = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === origin && /^\/api\/products\/\d+\/image$/.test(url.pathname) && response.status() === 200) images.push(response);
    });
    const answer = await page.goto(origin + path, { waitUntil: 'networkidle', timeout: 60_000 });
    if (answer?.status() !== 200) throw new Error(`${path} answered ${answer?.status() ?? 'nothing'}`);
    const sized = [];
    for (const response of images) {
      const url = new URL(response.url());
      sized.push({
        path: url.pathname + url.search,
        contentType: response.headers()['content-type'],
        bytes: (await response.body()).length,
      });
    }
    return sized;
  } finally {
    await context.close();
  }
}
