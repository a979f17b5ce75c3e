import { generateCatalogue } from '@catalogue/testing/generated-catalogue';
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { waitForProductsPage } from './support/page-helpers.ts';

/**
 * The search box at each keystroke (docs/product.md, "Products"), on both sides of the 200-product line: up to 200
 * the browser holds the list and filters it, past 200 it asks the server at every change of the box, cancels the
 * request for the text before, and shows an answer only for the text the box holds. Generated titles end with the
 * product's number and hold no other digit, so typing a number finds a known set of products.
 */
const SEARCH_PATH = '/api/products/search';

const matching = (size: number, text: string) => generateCatalogue(size).filter((product) => product.title.toLowerCase().includes(text));
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search products' });
const searches = (apiRequests: string[]) => apiRequests.filter((path) => path.startsWith(`${SEARCH_PATH}?`));

/**
 * From now on, records every count line the page shows ("12 of 201 products") in order, and marks any moment the grid
 * had no card or the loading spinner was up: what a visitor would see between keystrokes.
 */
async function recordWhatIsShown(page: Page): Promise<void> {
  await page.evaluate(() => {
    const shown: string[] = [];
    (window as unknown as { __shown: string[] }).__shown = shown;
    const note = (text: string) => shown.at(-1) !== text && shown.push(text);
    new MutationObserver(() => {
      note(document.querySelector('[aria-live]')?.textContent ?? 'no count');
      if (document.querySelectorAll('main a[href^="/productdetails/"]').length === 0) note('no card');
      if (document.querySelector('[role="status"][aria-label="Loading"]')) note('spinner');
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}

const shownSoFar = (page: Page) => page.evaluate(() => (window as unknown as { __shown: string[] }).__shown);

/** Two painted frames: whatever an answer that reached the page would change is on screen by then. */
const twoFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

test.describe('201 products: the server answers each keystroke', () => {
  const SIZE = 201;
  test.use({ siteKind: 'fresh', stubOptions: { products: generateCatalogue(SIZE) } });

  test('every change of the box is its own request, none waiting for a pause in typing', async ({ page, apiRequests }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    // 50 ms apart: a fast typist, far inside any pause a debounce would wait for.
    await searchBox(page).pressSequentially('123', { delay: 50 });
    await expect(page.getByText(`${matching(SIZE, '123').length} of ${SIZE} products`)).toBeVisible();
    await expect(page).toHaveURL(/\/products\?q=123$/);
    expect(searches(apiRequests)).toEqual([`${SEARCH_PATH}?q=1`, `${SEARCH_PATH}?q=12`, `${SEARCH_PATH}?q=123`]);
    // Never the whole list: past 200 products it does not travel.
    expect(apiRequests).not.toContain('/api/products');
  });

  test("the older text's request is cancelled, and its answer, held back past the newer one, is never shown @both", async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await recordWhatIsShown(page);

    // The server's real answer for "1", held back until the test lets it go.
    let releaseOlder!: () => void;
    const olderReleased = new Promise<void>((resolve) => (releaseOlder = resolve));
    let olderHandled!: Promise<void>;
    await page.route(
      (url) => url.pathname === SEARCH_PATH && url.search === '?q=1',
      (route: Route) =>
        (olderHandled = (async () => {
          const response = await route.fetch();
          await olderReleased;
          // The page gave up on it: Playwright refuses to fulfil a cancelled request, and nothing reaches the page.
          await route.fulfill({ response }).catch(() => undefined);
        })()),
    );
    const olderCancelled = page.waitForEvent('requestfailed', (request) => request.url().endsWith(`${SEARCH_PATH}?q=1`));
    const olderAsked = page.waitForRequest((request) => request.url().endsWith(`${SEARCH_PATH}?q=1`));
    const box = searchBox(page);
    await box.press('1');
    await olderAsked;
    await box.press('2');

    const newer = `${matching(SIZE, '12').length} of ${SIZE} products`;
    await expect(page.getByText(newer)).toBeVisible();
    await expect(page).toHaveURL(/\/products\?q=12$/);
    expect((await olderCancelled).failure()?.errorText).toBe('net::ERR_ABORTED');

    releaseOlder();
    await olderHandled;
    await twoFrames(page);
    await expect(page.getByText(newer)).toBeVisible();
    const older = `${matching(SIZE, '1').length} of ${SIZE} products`;
    // The whole list stayed up until the newer answer replaced it: no spinner, no empty grid, never the older answer.
    expect(await shownSoFar(page)).toEqual([newer]);
    expect(await shownSoFar(page)).not.toContain(older);
  });

  test('Backspace back to an answered text shows it at once (its cached answer), and the abandoned longer text never lands', async ({
    page,
  }) => {
    await page.goto('/products?q=1');
    await waitForProductsPage(page);
    const shownFor = (text: string) => `${matching(SIZE, text).length} of ${SIZE} products`;
    await expect(page.getByText(shownFor('1'))).toBeVisible();
    await recordWhatIsShown(page);

    // "12" answers at once; "123" is held back, so the box's text moves on to "12" while "123" is on its way; then
    // Backspace asks for "12" again (cached), and the late "123" must not land.
    let releaseLate!: () => void;
    const lateReleased = new Promise<void>((resolve) => (releaseLate = resolve));
    let lateHandled!: Promise<void>;
    await page.route(
      (url) => url.pathname === SEARCH_PATH && url.search === '?q=123',
      (route: Route) =>
        (lateHandled = (async () => {
          const response = await route.fetch();
          await lateReleased;
          await route.fulfill({ response }).catch(() => undefined);
        })()),
    );
    const box = searchBox(page);
    await box.press('End');
    await box.press('2');
    await expect(page.getByText(shownFor('12'))).toBeVisible();
    const lateAsked = page.waitForRequest((request) => request.url().endsWith(`${SEARCH_PATH}?q=123`));
    await box.press('3');
    await lateAsked;
    await box.press('Backspace');
    await expect(page).toHaveURL(/\/products\?q=12$/);

    releaseLate();
    await lateHandled;
    await twoFrames(page);
    await expect(page.getByText(shownFor('12'))).toBeVisible();
    expect(await shownSoFar(page)).toEqual([shownFor('12')]);
  });
});

test.describe('200 products: the browser filters the list it holds', () => {
  const SIZE = 200;
  test.use({ siteKind: 'fresh', stubOptions: { products: generateCatalogue(SIZE) } });

  test('each keystroke narrows the grid at once, with no request to the server @both', async ({ page, apiRequests }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).pressSequentially('12', { delay: 50 });
    await expect(page.getByText(`${matching(SIZE, '12').length} of ${SIZE} products`)).toBeVisible();
    await expect(page).toHaveURL(/\/products\?q=12$/);
    expect(searches(apiRequests)).toEqual([]);
  });
});
