import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { waitForApp } from './support/page-helpers.ts';

/**
 * The lead photo first (docs/decisions/before-the-app.md, "When the app's bytes load"): the page's largest paint, its
 * lead photo, is not held up by the app. The head only lists the app's scripts; the small entry script preloads them
 * all once the photo is painted and then starts the app; a photo that never comes holds the app back for a few
 * seconds at most.
 */
const LEAD_PHOTO = /\/api\/products\/1\/image\?w=\d+$/;
/** The app's chunk (Vite names it after start-app.tsx). */
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
  test(`${path}: the app's scripts wait for the lead photo, then load together and take the page over`, async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (request) => void requested.push(new URL(request.url()).pathname));
    const photo = await holdLeadPhoto(page);
    await page.goto(path, { waitUntil: 'domcontentloaded' });
    await photo.held;
    const listed = await page.evaluate(() => JSON.parse(document.getElementById('app-chunks')!.textContent) as string[]);
    expect(listed.some((script) => APP_CHUNK.test(script))).toBe(true);
    // The document is parsed and two frames have passed: a script linked in the head would have been asked for.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(
      requested.filter((asked) => listed.includes(asked)),
      "the app's scripts went ahead of the lead photo",
    ).toEqual([]);
    expect(await appStarted(page), 'the app started while the lead photo was still on its way').toBe(false);

    photo.release();
    await waitForApp(page);
    await page.waitForFunction(() => performance.getEntriesByName('app-in-control').length > 0);
    expect(requested).toEqual(expect.arrayContaining(listed));
    const { photoEnd, scriptStarts, inControl } = await page.evaluate((scripts) => {
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return {
        photoEnd: Math.max(...resources.filter((entry) => /\/api\/products\/1\/image/.test(entry.name)).map((entry) => entry.responseEnd)),
        scriptStarts: resources.filter((entry) => scripts.includes(new URL(entry.name).pathname)).map((entry) => entry.startTime),
        inControl: performance.getEntriesByName('app-in-control')[0]!.startTime,
      };
    }, listed);
    expect(Math.min(...scriptStarts)).toBeGreaterThan(photoEnd);
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
