import { PRODUCTS_PAGE_SIZE } from '@catalogue/shared/product-paging';
import { dollars, EMBEDDED_PRODUCTS, expectedTitles } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { cardTitles, productCard, productCards, waitForHomePage, waitForProductsPage } from './support/page-helpers.ts';

/** The site as `npm start` serves it offline: no PRODUCTS_API_URL, the catalogue bundled in the repository. */
test.use({ siteKind: 'embedded' });

test.describe('Embedded catalogue (no upstream configured)', () => {
  test('Home shows the first six embedded products @both', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    const hrefs = await page.locator('.swiper-slide a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs.sort()).toEqual(
      EMBEDDED_PRODUCTS.slice(0, 6)
        .map((product) => `/productdetails/${product.id}`)
        .sort(),
    );
    for (const product of EMBEDDED_PRODUCTS.slice(0, 6)) {
      await expect(page.locator('.swiper-slide').getByText(product.title, { exact: true })).toHaveCount(1);
    }
  });

  test('Products lists every embedded product, a page of 24 at a time, with loaded images, and sorts them by name', async ({ page }) => {
    // The 33 embedded products take two pages: every one of them is on one, in catalogue order.
    const pages = [EMBEDDED_PRODUCTS.slice(0, PRODUCTS_PAGE_SIZE), EMBEDDED_PRODUCTS.slice(PRODUCTS_PAGE_SIZE)];
    expect(pages[1]!.length).toBeGreaterThan(0);
    await page.goto('/products');
    await waitForProductsPage(page);
    for (const [index, products] of pages.entries()) {
      if (index > 0) await page.getByRole('navigation', { name: 'Pages of products' }).locator('a[rel="next"]').click();
      await expect.poll(() => cardTitles(page)).toEqual(products.map((product) => product.title));
      // Every image comes from our own API (`src`: the 640 px fallback variant) and really decodes (the lazy ones
      // once scrolled to).
      const images = productCards(page).locator('img');
      await expect(images).toHaveCount(products.length);
      for (const image of await images.all()) {
        await image.scrollIntoViewIfNeeded();
        await expect(image).toHaveAttribute('src', /^\/api\/products\/\d+\/image\?w=640$/);
        await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      }
    }
    // Mixed case and accented titles sort by locale, not by code point; sorting starts again at the first page.
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption('nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(EMBEDDED_PRODUCTS, '', 'nameAZ').slice(0, PRODUCTS_PAGE_SIZE));
  });

  test('a product without a rating shows 4 stars on its card and 0 on its page', async ({ page }) => {
    const product = EMBEDDED_PRODUCTS.find((candidate) => !candidate.rating)!;
    await page.goto('/products');
    await waitForProductsPage(page);
    await expect(productCard(page, product.id).getByRole('img', { name: 'Rated 4.0 out of 5' })).toBeVisible();
    await page.locator(`a[href="/productdetails/${product.id}"]`).click();
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
    await expect(main.getByRole('img', { name: 'Rated 0.0 out of 5' })).toBeVisible();
    await expect(main.getByText(dollars(product.price), { exact: true })).toBeVisible();
    await expect(main.getByText(product.description, { exact: true })).toBeVisible();
  });
});
