import type { Page } from '@playwright/test';
import { FIXTURE_PRODUCTS, productById } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { cumulativeShift, layoutShiftsSoFar } from './support/layout-shift.ts';
import { decodedPhoto, waitForApp } from './support/page-helpers.ts';

/**
 * A product's related products (docs/product.md, "Product detail"): up to four other products of its category below
 * it, as the grid's cards, in the server's HTML (no request for them once the page is there), their photos lazy,
 * nothing moving as they load, each card a link to its product, with JavaScript and without.
 */
const CLS_LIMIT = 0.01;

/** Product 2's category, "men's clothing", holds products 1 to 4 in the fixture catalogue: the other three, in order. */
const PRODUCT = productById(FIXTURE_PRODUCTS, 2);
const RELATED = FIXTURE_PRODUCTS.filter((other) => other.category === PRODUCT.category && other.id !== PRODUCT.id).slice(0, 4);
/** The only product of its category (the fixture's hostile one). */
const ALONE = FIXTURE_PRODUCTS.find((product) => FIXTURE_PRODUCTS.filter((other) => other.category === product.category).length === 1)!;

const relatedSection = (page: Page) => page.getByRole('main').getByRole('region', { name: 'Related products' });

/** The photo requests the page made so far, as product ids. */
function photoRequests(page: Page): number[] {
  const ids: number[] = [];
  page.on('request', (request) => {
    const match = /\/api\/products\/(\d+)\/image/.exec(new URL(request.url()).pathname);
    if (match) ids.push(Number(match[1]));
  });
  return ids;
}

async function expectRelatedCards(page: Page) {
  const section = relatedSection(page);
  await expect(section.getByRole('heading', { level: 2, name: 'Related products' })).toBeVisible();
  await expect(section.getByRole('heading', { level: 3 })).toHaveText(RELATED.map((product) => product.title));
  for (const product of RELATED) {
    await expect(section.getByRole('link', { name: product.title, exact: true })).toHaveAttribute('href', `/productdetails/${product.id}`);
  }
}

for (const javaScript of [true, false]) {
  test.describe(`with JavaScript ${javaScript ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled: javaScript });

    test('shows the other products of its category below it, with lazy photos, and nothing moves as they load @both', async ({
      page,
      apiRequests,
    }) => {
      const photos = photoRequests(page);
      await page.goto(`/productdetails/${PRODUCT.id}`, { waitUntil: 'networkidle' });
      if (javaScript) await waitForApp(page);
      await expect(page.getByRole('heading', { level: 1, name: PRODUCT.title })).toBeVisible();
      await expectRelatedCards(page);
      // In the page as the server sent it: nothing is asked for them, but their photos once they near the screen.
      expect(apiRequests.filter((request) => !/\/image\?/.test(request))).toEqual([]);
      const section = relatedSection(page);
      await expect(section.locator('img')).toHaveCount(RELATED.length);
      // Lazy, and never the page's largest paint: the browser fetches them as they near the screen.
      for (const image of await section.locator('img').all()) {
        await expect(image).toHaveAttribute('loading', 'lazy');
        await expect(image).not.toHaveAttribute('fetchpriority', /./);
      }
      await section.scrollIntoViewIfNeeded();
      for (const image of await section.locator('img').all()) {
        expect(await decodedPhoto(image)).toBe('decoded');
      }
      expect(new Set(photos.filter((id) => RELATED.some((product) => product.id === id)))).toEqual(new Set(RELATED.map(({ id }) => id)));
      // Scrolling is not input to the metric: a photo that moved anything as it arrived would count.
      const shifts = await layoutShiftsSoFar(page);
      expect(cumulativeShift(shifts), JSON.stringify(shifts)).toBeLessThanOrEqual(CLS_LIMIT);
    });

    test('opens a related product from its card, as a card does @both', async ({ page }) => {
      await page.goto(`/productdetails/${PRODUCT.id}`);
      if (javaScript) await waitForApp(page);
      // A mark that survives only if the app opens the page itself, without loading a new document.
      await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true)).catch(() => undefined);
      const next = RELATED[1]!;
      await relatedSection(page).getByRole('link', { name: next.title, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/productdetails/${next.id}$`));
      await expect(page.getByRole('heading', { level: 1, name: next.title })).toBeVisible();
      // Its own related products: the product it was opened from among them, itself not.
      await expect(relatedSection(page).getByRole('link', { name: PRODUCT.title, exact: true })).toBeVisible();
      await expect(relatedSection(page).getByRole('link', { name: next.title, exact: true })).toHaveCount(0);
      if (javaScript) expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true);
    });

    test('has no related products for the only product of its category', async ({ page, apiRequests }) => {
      await page.goto(`/productdetails/${ALONE.id}`, { waitUntil: 'networkidle' });
      if (javaScript) await waitForApp(page);
      await expect(page.getByRole('heading', { level: 1, name: ALONE.title })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Related products' })).toHaveCount(0);
      await expect(page.getByRole('main').locator('section')).toHaveCount(0);
      expect(apiRequests.filter((request) => !/\/image\?/.test(request))).toEqual([]);
    });
  });
}
