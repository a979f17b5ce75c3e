import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { waitForApp } from './support/page-helpers.ts';

/**
 * The lead photo first (docs/performance.md, "Layout shift and the largest paint"): the page's largest paint, its lead photo, does not share the first
 * round trips with the app's JavaScript. The small entry script waits until the photo is painted, then fetches the
 * app and hydrates; a photo that never comes holds the app back for a few seconds at most.
 */
const LEAD_PHOTO = /\/api\/products\/1\/image\?w=\d+$/;
/** The app's chunk, which the entry script imports once the photo is painted (Vite names it after start-app.tsx). */
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

for (const path of ['/', '/products', '/productdetails/1']) {
  test(`${path}: the app is fetched once the lead photo is in, not before`, async ({ page }) => {
    const events: string[] = [];
    page.on('request', (request) => {
      if (APP_CHUNK.test(request.url())) events.push('app requested');
    });
    page.on('requestfinished', (request) => {
      if (LEAD_PHOTO.test(request.url())) events.push('photo loaded');
    });
    const photo = await holdLeadPhoto(page);
    // Module scripts run before DOMContentLoaded: once it has fired, the entry script is waiting on the photo.
    await page.goto(path, { waitUntil: 'domcontentloaded' });
    await photo.held;
    expect(events, 'the app was fetched while the lead photo was still on its way').toEqual([]);

    photo.release();
    await waitForApp(page);
    expect(events).toEqual(['photo loaded', 'app requested']);
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
