import type { Page } from '@playwright/test';
import { dollars, expectedTitles, FIXTURE_PRODUCTS, SORT_LABELS } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { cardTitles, productCards, waitForProductsPage } from './support/page-helpers.ts';

const ALL_TITLES = FIXTURE_PRODUCTS.map((product) => product.title);

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search products' });
}

function sortSelect(page: Page) {
  return page.getByRole('combobox', { name: 'Sort products' });
}

/** Number of distinct card columns, from the cards' x positions. */
async function columnCount(page: Page): Promise<number> {
  const xs = await productCards(page).evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().x)));
  return new Set(xs).size;
}

test.describe('Products list', () => {
  test('shows the heading, a search box, the sort options and every product in catalogue order', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await expect(page).toHaveTitle(/Our Products/);
    await expect(searchBox(page)).toHaveAttribute('placeholder', 'Search products...');
    await expect(sortSelect(page).getByRole('option')).toHaveText(Object.values(SORT_LABELS));
    await expect(sortSelect(page)).toHaveValue('none');
    expect(await cardTitles(page)).toEqual(ALL_TITLES);
  });

  test('each card is one link to its product with category, title, stars and a dollar price', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    for (const [index, product] of FIXTURE_PRODUCTS.entries()) {
      const card = productCards(page).nth(index);
      const links = card.getByRole('link');
      await expect(links).toHaveCount(1);
      await expect(links).toHaveAttribute('href', `/productdetails/${product.id}`);
      await expect(card.getByRole('img', { name: product.title })).toHaveCount(1);
      await expect(card.getByText(product.category, { exact: true })).toBeVisible();
      await expect(card.getByRole('heading')).toHaveText(product.title);
      // The rate to one decimal; docs/product.md's default on cards is 4 when the product has no rating.
      const rate = (product.rating?.rate ?? 4).toFixed(1);
      await expect(card.getByRole('img', { name: `Rated ${rate} out of 5`, exact: true })).toBeVisible();
      await expect(card.getByText(dollars(product.price), { exact: true })).toBeVisible();
    }
  });

  test('stars: five per rating, full/half/empty by the rate, and 4 of 5 when a product has no rating', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const starsOf = (id: number) =>
      page
        .locator(`a[href="/productdetails/${id}"]`)
        .getByRole('img', { name: /^Rated / })
        .locator('[data-star]');
    const fills = (id: number) => starsOf(id).evaluateAll((stars) => stars.map((star) => star.getAttribute('data-star')));

    // Product 5 has no rating in the data: 4 full stars and 'Rated 4.0 out of 5'.
    await expect(page.locator('a[href="/productdetails/5"]').getByRole('img', { name: 'Rated 4.0 out of 5' })).toBeVisible();
    expect(await fills(5)).toEqual(['full', 'full', 'full', 'full', 'empty']);
    // 2.1 → two full stars; 4.4 → four and a half.
    expect(await fills(4)).toEqual(['full', 'full', 'empty', 'empty', 'empty']);
    expect(await fills(9)).toEqual(['full', 'full', 'full', 'full', 'half']);
  });

  test('search filters by a case-insensitive substring of the title', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    for (const text of ['MENS', 'gold', 'ssd', 'ÉCHARPE', 'jacket']) {
      await searchBox(page).fill(text);
      const expected = expectedTitles(FIXTURE_PRODUCTS, text, 'none');
      expect(expected.length, `test data for '${text}'`).toBeGreaterThan(0);
      await expect.poll(() => cardTitles(page), { message: `search '${text}'` }).toEqual(expected);
    }
    // Category and description do not count: 'electronics' is only a category.
    await searchBox(page).fill('electronics');
    await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
  });

  for (const sort of ['priceLowHigh', 'priceHighLow', 'nameAZ', 'none'] as const) {
    test(`sort '${SORT_LABELS[sort]}' orders the cards as the data says`, async ({ page }) => {
      await page.goto(sort === 'none' ? '/products?sort=nameAZ' : '/products');
      await waitForProductsPage(page);
      await sortSelect(page).selectOption({ label: SORT_LABELS[sort] });
      await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, '', sort));
      if (sort !== 'none') {
        const prices = await productCards(page).getByText(/^\$/).allTextContents();
        const values = prices.map((price) => Number(price.replace(/[$,]/g, '')));
        if (sort === 'priceLowHigh') expect(values).toEqual([...values].sort((a, b) => a - b));
        if (sort === 'priceHighLow') expect(values).toEqual([...values].sort((a, b) => b - a));
      }
      await expect(page).toHaveURL(sort === 'none' ? /\/products$/ : new RegExp(`[?&]sort=${sort}(&|$)`));
    });
  }

  test('filtering comes first, then sorting', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await sortSelect(page).selectOption('priceHighLow');
    await searchBox(page).fill('women');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'women', 'priceHighLow'));
    await sortSelect(page).selectOption('nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'women', 'nameAZ'));
  });

  test('an empty result says No products found. @both', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).fill('zzz-no-such-product');
    await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
    await expect(productCards(page)).toHaveCount(0);
    await searchBox(page).fill('');
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
  });

  test('the grid has 1 column on a phone @mobile', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    expect(await columnCount(page)).toBe(1);
    const card = await productCards(page).first().boundingBox();
    // One card fills the row (the page's side padding aside).
    expect(card!.width).toBeGreaterThan(375 * 0.8);
  });

  test('the grid has 2 columns from 640 px, 3 from 768 px, 4 from 1024 px', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    for (const [width, columns] of [
      [1280, 4],
      [1024, 4],
      [1023, 3],
      [800, 3],
      [768, 3],
      [767, 2],
      [700, 2],
      [640, 2],
      [639, 1],
      [375, 1],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => columnCount(page), { message: `columns at ${width} px` }).toBe(columns);
      const template = await page
        .getByRole('main')
        .getByRole('list')
        .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns);
      expect(template.split(' ').length, `grid-template-columns at ${width} px: ${template}`).toBe(columns);
    }
  });

  test('search and sort live in the URL and survive a reload', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).fill('Mens');
    await sortSelect(page).selectOption('priceLowHigh');
    await expect(page).toHaveURL(/\/products\?q=Mens&sort=priceLowHigh$/);
    const expected = expectedTitles(FIXTURE_PRODUCTS, 'Mens', 'priceLowHigh');
    await expect.poll(() => cardTitles(page)).toEqual(expected);

    await page.reload();
    await waitForProductsPage(page);
    await expect(searchBox(page)).toHaveValue('Mens');
    await expect(sortSelect(page)).toHaveValue('priceLowHigh');
    expect(await cardTitles(page)).toEqual(expected);
  });

  test('Back from a product returns to the list with its search and sort', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await searchBox(page).fill('gold');
    await sortSelect(page).selectOption('nameAZ');
    const expected = expectedTitles(FIXTURE_PRODUCTS, 'gold', 'nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expected);

    await productCards(page).first().getByRole('link').click();
    await expect(page).toHaveURL(/\/productdetails\/\d+$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/products\?q=gold&sort=nameAZ$/);
    await expect(searchBox(page)).toHaveValue('gold');
    await expect(sortSelect(page)).toHaveValue('nameAZ');
    await expect.poll(() => cardTitles(page)).toEqual(expected);

    // Each sort choice is its own history entry: Back undoes it.
    await page.goBack();
    await expect(page).toHaveURL(/\/products\?q=gold$/);
    await expect(sortSelect(page)).toHaveValue('none');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'gold', 'none'));
  });

  test('a shared link opens with its search and sort applied @both', async ({ page }) => {
    await page.goto('/products?q=SLIM&sort=priceHighLow');
    await waitForProductsPage(page);
    await expect(searchBox(page)).toHaveValue('SLIM');
    await expect(sortSelect(page)).toHaveValue('priceHighLow');
    expect(await cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'SLIM', 'priceHighLow'));
  });

  test('an unknown sort value in the URL falls back to Sort by... and the catalogue order', async ({ page }) => {
    await page.goto('/products?sort=cheapestFirst');
    await waitForProductsPage(page);
    await expect(sortSelect(page)).toHaveValue('none');
    await expect(sortSelect(page).locator('option:checked')).toHaveText('Sort by...');
    expect(await cardTitles(page)).toEqual(ALL_TITLES);
  });

  test('a card opens its product page', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const product = FIXTURE_PRODUCTS[2]!;
    await page.getByRole('link', { name: product.title }).click();
    await expect(page).toHaveURL(new RegExp(`/productdetails/${product.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
  });
});
