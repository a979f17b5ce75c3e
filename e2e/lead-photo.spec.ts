import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { waitForApp } from './support/page-helpers.ts';

/**
 * The lead photo first (docs/performance.md, "Takeover and interactions"): the page's largest paint, its lead photo,
 * is not held up by the app. The head preloads the app's chunk at low priority, so its bytes load beside the photo
 * rather than after it, and the small entry script starts the app only once the photo is painted; a photo that never
 * comes holds the app back for a few seconds at most.
 */
const LEAD_PHOTO = /\/api\/products\/1\/image\?w=\d+$/;
/** The app's chunk, which the head preloads and the entry script imports once the photo is painted (Vite names it after start-app.tsx). */
const APP_CHUNK = /\/assets\/start-app-[\w-]+\.js$/;

/** Holds every request for the lead photo until `release()`; `held` resolves when the first one arrives. */
async function holdLeadPhoto(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  await page.route(LEAD_PHOTO, async (route: Route) => {
    arrived();
    await released;
    await route.continue();
  });
  return { held, release };
}

/** Whether React has begun hydrating the page's root, i.e. the app has started. */
function appStarted(page: Page): Promise<boolean> {
  return page.evaluate(() => Object.keys(document.getElementById('root') ?? {}).some((key) => key.startsWith('__reactContainer$')));
}

for (const path of ['/', '/products', '/productdetails/1']) {
  test(`${path}: the app loads at low priority beside the lead photo and starts once the photo is in`, async ({ page }) => {
    const priorities: string[] = [];
    const cdp = await page.context().newCDPSession(page);
    cdp.on('Network.requestWillBeSent', ({ request }) => {
      if (APP_CHUNK.test(request.url)) priorities.push(request.initialPriority);
    });
    await cdp.send('Network.enable');
    // No limit of its own (the test's applies): on a loaded machine the low-priority fetch may take a while.
    const appLoaded = page.waitForEvent('requestfinished', { predicate: (request) => APP_CHUNK.test(request.url()), timeout: 0 });
    const photo = await holdLeadPhoto(page);
    await page.goto(path, { waitUntil: 'domcontentloaded' });
    await photo.held;
    // The app's bytes do not wait for the photo, and do not go ahead of it.
    await appLoaded;
    expect(priorities).toEqual(['Low']);
    // Only the photo holds the app back now: a frame later it has still not started.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await appStarted(page), 'the app started while the lead photo was still on its way').toBe(false);

    photo.release();
    await waitForApp(page);
    await page.waitForFunction(() => performance.getEntriesByName('app-in-control').length > 0);
    const [photoEnd, inControl] = await page.evaluate(() => [
      Math.max(
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => /\/api\/products\/1\/image/.test(entry.name))
          .map((entry) => (entry as PerformanceResourceTiming).responseEnd),
      ),
      performance.getEntriesByName('app-in-control')[0]!.startTime,
    ]);
    expect(inControl).toBeGreaterThan(photoEnd);
  });
}

test('a lead photo that never arrives holds the app back only for a while', async ({ page }) => {
  const photo = await holdLeadPhoto(page);
  await page.goto('/productdetails/1', { waitUntil: 'domcontentloaded' });
  await photo.held;
  await waitForApp(page);
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveClass('dark');
  photo.release();
});
