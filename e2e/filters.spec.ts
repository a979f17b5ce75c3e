import type { Page } from '@playwright/test';
import type { Product } from '@catalogue/shared/product';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';
import { categoryNames } from './support/catalogue.ts';
import { holdApp } from './support/held-app.ts';
import {
  cardTitles,
  expectNoSeriousAxeViolations,
  productCards,
  storeTheme,
  waitForApp,
  waitForProductsPage,
} from './support/page-helpers.ts';

/**
 * The price and rating filters of /products (docs/product.md, "Filters"), with scripts on, off and held back. What
 * the page should show is worked out here from the data (a product without a rating reads as its card shows it, 4),
 * not with the app's shared code.
 */

interface Filters {
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
}

const rateOf = (product: Product) => product.rating?.rate ?? 4;

function passes(product: Product, { minPrice, maxPrice, minRating }: Filters): boolean {
  return (
    (minPrice === undefined || product.price >= minPrice) &&
    (maxPrice === undefined || product.price <= maxPrice) &&
    (minRating === undefined || rateOf(product) >= minRating)
  );
}

function expectedTitles(filters: Filters, category = ''): string[] {
  return FIXTURE_PRODUCTS.filter((product) => (category === '' || product.category === category) && passes(product, filters)).map(
    (product) => product.title,
  );
}

/** Each category's link text with its count: taken under the filters, whichever category is chosen. */
function expectedCategoryLinks(filters: Filters): string[] {
  return categoryNames(FIXTURE_PRODUCTS).map(
    (name) => `${name} (${FIXTURE_PRODUCTS.filter((product) => product.category === name && passes(product, filters)).length})`,
  );
}

/** The filters' disclosure: folded on a phone, always open from 1024 px. */
async function openFilters(page: Page) {
  const summary = page.locator('summary', { hasText: 'Filters' });
  if (await summary.isVisible()) {
    const open = await summary.evaluate((element) => (element.parentElement as HTMLDetailsElement).open);
    if (!open) await summary.click();
  }
}

const from = (page: Page) => page.getByRole('textbox', { name: 'From' });
const to = (page: Page) => page.getByRole('textbox', { name: 'To' });
const rating = (page: Page, min: number) => page.getByRole('radio', { name: new RegExp(`^${min}★ & up`) });
const categoryLinks = (page: Page) => page.getByRole('navigation', { name: 'Categories' }).getByRole('link');

test.describe('Filters with scripts', () => {
  test('a price range and a least rating narrow the list, counts follow, the URL keeps them, Clear filters clears @both', async ({
    page,
  }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await openFilters(page);
    await expect(categoryLinks(page)).toHaveText(expectedCategoryLinks({}));

    await rating(page, 4).check();
    await expect(page).toHaveURL(/\/products\?minRating=4$/);
    await to(page).fill('100');
    await expect(page).toHaveURL(/\/products\?minRating=4&maxPrice=100$/);
    const filters = { minRating: 4, maxPrice: 100 };
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(filters));
    await expect(page.getByText(`${expectedTitles(filters).length} of ${FIXTURE_PRODUCTS.length} products`)).toBeVisible();
    await expect(categoryLinks(page)).toHaveText(expectedCategoryLinks(filters));

    // A category keeps the filters, and its own count is still every category's.
    await categoryLinks(page).filter({ hasText: "women's clothing" }).click();
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(filters, "women's clothing"));
    await expect(page.getByRole('combobox', { name: 'Filter by category' })).toHaveValue("women's clothing");
    await expect(categoryLinks(page)).toHaveText(expectedCategoryLinks(filters));

    // Reload and Back keep what the URL holds.
    await page.reload();
    await waitForProductsPage(page);
    await expect(rating(page, 4)).toBeChecked();
    await expect(to(page)).toHaveValue('100');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(filters, "women's clothing"));
    await page.goBack();
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(filters));

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    await expect(page.getByRole('link', { name: 'Clear filters' })).toHaveCount(0);
  });

  test('a price range that leaves nothing says so, as an empty search does @mobile', async ({ page }) => {
    await page.goto('/products?minPrice=5000');
    await waitForProductsPage(page);
    await expect(page.getByText('No products found.')).toBeVisible();
    // Set in the URL, the filters show unfolded on a phone too.
    await expect(from(page)).toBeVisible();
    await expect(from(page)).toHaveValue('5000');
  });
});

test.describe('Filters without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('the GET form sends the price range and the least rating with the search @both', async ({ page }) => {
    await page.goto('/products');
    await openFilters(page);
    await from(page).fill('10');
    await to(page).fill('120');
    await rating(page, 3).check();
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/minRating=3/);
    const params = Object.fromEntries(new URL(page.url()).searchParams);
    expect(params).toMatchObject({ minPrice: '10', maxPrice: '120', minRating: '3' });
    const filters = { minPrice: 10, maxPrice: 120, minRating: 3 };
    expect(await cardTitles(page)).toEqual(expectedTitles(filters));
    await expect(categoryLinks(page)).toHaveText(expectedCategoryLinks(filters));

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
  });
});

test.describe('Filters left unset without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('the form’s empty fields mean “not set”: the list, the filters and the links are the app’s for the same URL @desktop', async ({
    page,
  }) => {
    await page.goto('/products');
    await openFilters(page);
    await rating(page, 4).check();
    const [sent] = await Promise.all([
      page.waitForResponse((response) => new URL(response.url()).pathname === '/products'),
      page.getByRole('button', { name: 'Apply filters' }).click(),
    ]);
    // A browser without scripts sends every field of the form, the ones left alone empty.
    expect(Object.fromEntries(new URL(sent.url()).searchParams)).toEqual({
      q: '',
      category: '',
      sort: 'none',
      minPrice: '',
      maxPrice: '',
      minRating: '4',
    });
    expect(await cardTitles(page)).toEqual(expectedTitles({ minRating: 4 }));
    await expect(from(page)).toHaveValue('');
    await expect(page.getByRole('link', { name: 'Clear filters' })).toHaveAttribute('href', '/products');
  });
});

test.describe('Filters, a URL the form was sent to without scripts', () => {
  test('the app spells it as its own once it takes over, replacing the entry @desktop', async ({ page }) => {
    await page.goto('/products?q=&category=&sort=none&minPrice=&maxPrice=&minRating=4');
    await waitForApp(page);
    await expect.poll(() => new URL(page.url()).search).toBe('?minRating=4');
    expect(await cardTitles(page)).toEqual(expectedTitles({ minRating: 4 }));
    // Replaced, not added: Back leaves the site.
    await page.goBack();
    expect(page.url()).toBe('about:blank');
  });
});

test.describe('Filters before the app takes over', () => {
  test('a price typed and a rating chosen in the server’s page are kept when the app takes over @both', async ({ page }) => {
    const app = await holdApp(page);
    await page.goto('/products', { waitUntil: 'commit' });
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    await openFilters(page);
    await from(page).fill('20');
    await rating(page, 2).check();

    app.release();
    await waitForApp(page);
    const filters = { minPrice: 20, minRating: 2 };
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(filters));
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ minPrice: '20', minRating: '2' });
    await expect(from(page)).toHaveValue('20');
    await expect(rating(page, 2)).toBeChecked();
  });
});

test.describe('Filters, accessibility', () => {
  test('axe finds nothing serious with filters set and shown, both themes @both', async ({ page }) => {
    await storeTheme(page, 'light');
    await page.goto('/products?minPrice=10&maxPrice=200&minRating=3');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      await page.reload();
      await waitForProductsPage(page);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /(^|\s)dark(\s|$)/ : /^(?!.*\bdark\b)/);
      await expect(from(page)).toBeVisible();
      await expectNoSeriousAxeViolations(page, `filters, ${theme} theme`);
    }
  });
});
