import { LARGE_CATALOGUE_SIZE, largeCatalogue } from '@catalogue/testing/generated-catalogue';
import { expect, test } from './fixtures/test.ts';
import { cardTitles, waitForProductsPage } from './support/page-helpers.ts';

/**
 * The site in front of a 50,000-product upstream (each record its own words): the list travels a page of 24 at a
 * time, its pages linked for a browser without JavaScript and for crawlers, and the search box asks the server.
 */
const PRODUCTS = largeCatalogue();
const PAGE_SIZE = 24;
const LAST_PAGE = Math.ceil(LARGE_CATALOGUE_SIZE / PAGE_SIZE);
/** The page budget of docs/product.md, "Products". */
const PAGE_MAX_BYTES = 250 * 1024;
const titles = (from: number, to: number) => PRODUCTS.slice(from, to).map((product) => product.title);

test.use({ siteKind: 'fresh', stubOptions: { products: PRODUCTS } });
// Each test's fresh server first downloads, parses and indexes 25 MB: seconds on two busy cores.
test.describe.configure({ timeout: 120_000 });

/** The first fill, before any page is asked for, so a navigation's time limit measures the page, not the fill. */
test.beforeEach(async ({ request, site }) => {
  expect((await request.get(`${site.url}/api/products/search`, { timeout: 90_000 })).status()).toBe(200);
});

test.describe(`${LARGE_CATALOGUE_SIZE} products without JavaScript`, () => {
  test.use({ javaScriptEnabled: false });

  test('page by plain links: Next, Previous and the page numbers, each page small and its own canonical', async ({ page }) => {
    const first = await page.goto('/products');
    expect((await first!.body()).length).toBeLessThanOrEqual(PAGE_MAX_BYTES);
    expect(await cardTitles(page)).toEqual(titles(0, PAGE_SIZE));
    await expect(page.getByText(`${LARGE_CATALOGUE_SIZE} products`)).toBeVisible();
    const pages = page.getByRole('navigation', { name: 'Pages of products' });
    await expect(pages.locator('a[rel="prev"]')).toHaveCount(0);

    await pages.locator('a[rel="next"]').click();
    await expect(page).toHaveURL(/\/products\?page=2$/);
    expect(await cardTitles(page)).toEqual(titles(PAGE_SIZE, 2 * PAGE_SIZE));
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/products\?page=2$/);
    await expect(pages.getByRole('link', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');

    const last = await Promise.all([
      page.waitForResponse(/page=\d+$/),
      pages.getByRole('link', { name: `Page ${LAST_PAGE}`, exact: true }).click(),
    ]);
    expect((await last[0].body()).length).toBeLessThanOrEqual(PAGE_MAX_BYTES);
    expect(await cardTitles(page)).toEqual(titles((LAST_PAGE - 1) * PAGE_SIZE, LARGE_CATALOGUE_SIZE));
    await expect(pages.locator('a[rel="next"]')).toHaveCount(0);

    await pages.locator('a[rel="prev"]').click();
    await expect(page).toHaveURL(new RegExp(`page=${LAST_PAGE - 1}$`));
  });

  test('searches, narrows and sorts through the server, a page at a time', async ({ page }) => {
    const response = await page.goto('/products?q=ba&category=jewelery&sort=priceLowHigh&page=3');
    expect(response!.status()).toBe(200);
    expect((await response!.body()).length).toBeLessThanOrEqual(PAGE_MAX_BYTES);
    const expected = PRODUCTS.filter((product) => product.category === 'jewelery' && product.title.toLowerCase().includes('ba')).sort(
      (a, b) => a.price - b.price,
    );
    expect(await cardTitles(page)).toEqual(expected.slice(2 * PAGE_SIZE, 3 * PAGE_SIZE).map((product) => product.title));
    await expect(page.getByText(`${expected.length} of ${LARGE_CATALOGUE_SIZE} products`)).toBeVisible();
  });
});

test('the search box finds, through the server, a product far from the first page', async ({ page, apiRequests }) => {
  await page.goto('/products');
  await waitForProductsPage(page);
  const wanted = PRODUCTS.at(-1)!;
  await page.getByRole('searchbox', { name: 'Search products' }).pressSequentially(wanted.title.toLowerCase());
  await expect(page).toHaveURL(/\?q=/);
  await expect.poll(() => cardTitles(page)).toEqual([wanted.title]);
  await expect(page.getByText(`1 of ${LARGE_CATALOGUE_SIZE} products`)).toBeVisible();
  // Asked of the server as the text grew (a request per keystroke, keys within one frame may share one), the last
  // for the whole title; never the whole list.
  const typed = apiRequests
    .filter((request) => request.startsWith('/api/products/search?q='))
    .map((request) => new URLSearchParams(request.split('?')[1]).get('q')!);
  expect(typed.length).toBeGreaterThan(1);
  expect(typed.at(-1)).toBe(wanted.title.toLowerCase());
  typed.forEach((text, index) =>
    expect(wanted.title.toLowerCase().startsWith(text) && text.length > (typed[index - 1]?.length ?? 0)).toBe(true),
  );
  expect(apiRequests).not.toContain('/api/products');
});
