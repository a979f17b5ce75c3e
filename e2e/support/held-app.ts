import type { Page, Route } from '@playwright/test';

/** The app's scripts: the entry module and every chunk it imports or preloads (Vite's `/assets/*.js`). */
const APP_SCRIPT = /\/assets\/[^/?]+\.js(\?|$)/;

/** The app held back: the page is the server's HTML alone until `release()`. */
export interface HeldApp {
  /** Lets every held script through, and every later one. */
  release(): void;
}

/**
 * Holds every request for the app's JavaScript until `release()`, as a slow connection does while the visitor already
 * reads, types and scrolls the server's page. Module scripts hold back `DOMContentLoaded`, so a page opened under a
 * hold is opened with `waitUntil: 'commit'`.
 */
export async function holdApp(page: Page): Promise<HeldApp> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(APP_SCRIPT, async (route: Route) => {
    await released;
    await route.continue();
  });
  return { release };
}
