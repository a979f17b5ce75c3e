import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';
import { expectedTitles } from './support/catalogue.ts';
import { productCards, spinner, storeTheme, waitForApp } from './support/page-helpers.ts';

/**
 * Pages arrive whole from the server and the browser app takes them over (hydrates) without redrawing them:
 * docs/pages.md. Each page is read with JavaScript off, and with it on in both themes at both widths.
 */

const PRODUCT = FIXTURE_PRODUCTS[1]!;
/** Its category is markup with quotes, `%`, `?` and `#`. */
const MARKUP_PRODUCT = FIXTURE_PRODUCTS[19]!;
const DARK_CLASS = /(^|\s)dark(\s|$)/;

interface PageCase {
  path: string;
  heading: string;
  /** Something of the page's own content besides its heading. */
  content: (page: Page) => Promise<void>;
}

const PAGES: PageCase[] = [
  {
    path: '/',
    heading: 'Products Gallery',
    content: async (page) => {
      await expect(page.locator('.swiper-slide').first()).toBeVisible();
      await expect(page.getByRole('link', { name: 'See More' })).toHaveAttribute('href', '/products');
    },
  },
  {
    path: '/products',
    heading: 'Our Products',
    content: async (page) => {
      await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
      await expect(page.getByText(`${FIXTURE_PRODUCTS.length} products`)).toBeVisible();
    },
  },
  {
    path: '/products?q=gold&sort=priceHighLow',
    heading: 'Our Products',
    content: async (page) => {
      await expect(productCards(page).getByRole('heading')).toHaveText(expectedTitles(FIXTURE_PRODUCTS, 'gold', 'priceHighLow'));
      await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('gold');
    },
  },
  {
    path: `/products?${new URLSearchParams({ category: MARKUP_PRODUCT.category }).toString()}`,
    heading: 'Our Products',
    content: async (page) => {
      await expect(productCards(page).getByRole('heading')).toHaveText([MARKUP_PRODUCT.title]);
      await expect(page.getByRole('combobox', { name: 'Filter by category' })).toHaveValue(MARKUP_PRODUCT.category);
      await expect(page).toHaveTitle(`${MARKUP_PRODUCT.category} · Our Products · Catalogue`);
    },
  },
  {
    path: '/products?category=furniture',
    heading: 'Our Products',
    content: async (page) => {
      await expect(page.getByText('No products found.', { exact: true })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Filter by category' })).toHaveValue('furniture');
    },
  },
  {
    path: `/productdetails/${PRODUCT.id}`,
    heading: PRODUCT.title,
    content: async (page) => {
      await expect(page.getByText('$22.30')).toBeVisible();
      await expect(page.getByText(PRODUCT.description)).toBeVisible();
    },
  },
  {
    path: '/productdetails/abc',
    heading: 'Invalid Product ID',
    content: async (page) => {
      await expect(page.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
    },
  },
  {
    path: '/productdetails/9999',
    heading: 'Product not found',
    content: async (page) => {
      await expect(page.getByRole('link', { name: 'Back to Products' })).toHaveAttribute('href', '/products');
    },
  },
  {
    path: '/no/such/page',
    heading: 'Page Not Found',
    content: async (page) => {
      await expect(page.getByText('404', { exact: true })).toBeVisible();
    },
  },
];

const isImageRequest = (path: string) => /^\/api\/products\/\d+\/image(\?|$)/.test(path);

function mainHeading(page: Page) {
  return page.getByRole('main').getByRole('heading', { level: 1 });
}

/**
 * Console errors of the page, and any message about hydration, but for Chromium's note on a page answered with an
 * error status (a 404 page is meant to be one). (Chromium's warnings on preloads depend on timing: on a busy machine
 * a preloaded photo can be drawn after its "few seconds".)
 */
function recordConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' && !/hydrat/i.test(message.text())) return;
    const documentStatus = /^Failed to load resource: the server responded with a status of (400|404|503)/.test(message.text());
    if (documentStatus && message.location().url === page.url()) return;
    problems.push(`${message.type()}: ${message.text()}`);
  });
  return problems;
}

/**
 * Keeps, from before any script runs, the main heading the HTML parser inserted, so a test can tell whether the app
 * took over the server's nodes (hydration) or replaced them (a mismatch makes React render the page again).
 */
async function rememberServerHeading(page: Page): Promise<void> {
  await page.addInitScript(() => {
    new MutationObserver((_records, observer) => {
      const heading = document.querySelector('main h1');
      if (heading) {
        (window as unknown as { serverHeading: Element }).serverHeading = heading;
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

function headingIsTheServers(page: Page): Promise<boolean> {
  return page.evaluate(() => document.querySelector('main h1') === (window as unknown as { serverHeading?: Element }).serverHeading);
}

/** The app has taken over and runs: the theme button works. It is flipped back so the test leaves no trace. */
async function expectHydrated(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const other = theme === 'dark' ? 'light' : 'dark';
  const html = page.locator('html');
  await waitForApp(page);
  await page.getByRole('button', { name: `Switch to ${other} theme` }).click();
  await (other === 'dark' ? expect(html).toHaveClass(DARK_CLASS) : expect(html).not.toHaveClass(DARK_CLASS));
  await page.getByRole('button', { name: `Switch to ${theme} theme` }).click();
  await (theme === 'dark' ? expect(html).toHaveClass(DARK_CLASS) : expect(html).not.toHaveClass(DARK_CLASS));
}

test.describe('Server rendering, JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  for (const { path, heading, content } of PAGES) {
    test(`${path} is readable without JavaScript @both`, async ({ page }) => {
      const problems = recordConsoleProblems(page);
      await page.goto(path);
      await expect(mainHeading(page)).toHaveText(heading);
      await content(page);
      await expect(spinner(page)).toHaveCount(0);
      expect(problems).toEqual([]);
    });
  }

  test('the search box searches through the server: Enter sends /products?q= @both', async ({ page }) => {
    await page.goto('/products');
    await page.getByRole('searchbox', { name: 'Search products' }).fill('jacket');
    await page.getByRole('searchbox', { name: 'Search products' }).press('Enter');
    // The form sends its other fields too, empty or at their defaults (the filters' since issue 50).
    await expect(page).toHaveURL(/\/products\?q=jacket(&category=)?(&sort=none)?(&minPrice=&maxPrice=&minRating=)?$/);
    const jackets = expectedTitles(FIXTURE_PRODUCTS, 'jacket', 'none');
    await expect(productCards(page).getByRole('heading')).toHaveText(jackets);
    await expect(page.getByText(`${jackets.length} of ${FIXTURE_PRODUCTS.length} products`)).toBeVisible();
  });

  test('sorting works through the Apply button, keeping the search @both', async ({ page }) => {
    await page.goto('/products?q=gold');
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption('priceLowHigh');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page).toHaveURL('/products?q=gold&category=&sort=priceLowHigh&minPrice=&maxPrice=&minRating=');
    await expect(productCards(page).getByRole('heading')).toHaveText(expectedTitles(FIXTURE_PRODUCTS, 'gold', 'priceLowHigh'));
    await expect(page.getByRole('combobox', { name: 'Sort products' })).toHaveValue('priceLowHigh');
  });

  test('a category works through the Apply button, with the search and sort, hostile names intact @both', async ({ page }) => {
    await page.goto('/products?q=women&sort=priceHighLow');
    await page.getByRole('combobox', { name: 'Filter by category' }).selectOption({ label: "women's clothing" });
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page).toHaveURL('/products?q=women&category=women%27s+clothing&sort=priceHighLow&minPrice=&maxPrice=&minRating=');
    await expect(productCards(page).getByRole('heading')).toHaveText(
      expectedTitles(FIXTURE_PRODUCTS, 'women', 'priceHighLow', "women's clothing"),
    );

    await page.getByRole('searchbox', { name: 'Search products' }).fill('');
    await page.getByRole('combobox', { name: 'Filter by category' }).selectOption({ label: MARKUP_PRODUCT.category });
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    expect(new URL(page.url()).searchParams.get('category')).toBe(MARKUP_PRODUCT.category);
    await expect(productCards(page).getByRole('heading')).toHaveText([MARKUP_PRODUCT.title]);
    await expect(page.getByRole('combobox', { name: 'Filter by category' })).toHaveValue(MARKUP_PRODUCT.category);
  });

  test("a card's category badge is a plain link to that category's list @both", async ({ page }) => {
    await page.goto('/products');
    await productCards(page).getByRole('link', { name: MARKUP_PRODUCT.category, exact: true }).click();
    expect(new URL(page.url()).searchParams.get('category')).toBe(MARKUP_PRODUCT.category);
    await expect(productCards(page).getByRole('heading')).toHaveText([MARKUP_PRODUCT.title]);
  });

  test('links are plain links: a card leads to its product page @both', async ({ page }) => {
    await page.goto('/products');
    await productCards(page)
      .getByRole('link', { name: new RegExp(PRODUCT.title) })
      .click();
    await expect(page).toHaveURL(`/productdetails/${PRODUCT.id}`);
    await expect(mainHeading(page)).toHaveText(PRODUCT.title);
    await page.getByRole('link', { name: 'Back to Products' }).click();
    await expect(mainHeading(page)).toHaveText('Our Products');
  });
});

test.describe('Server rendering, JavaScript on', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const { path, heading, content } of PAGES) {
      test(`${path} in the ${theme} theme is hydrated without a redraw, an error or a request @both`, async ({ page, apiRequests }) => {
        await storeTheme(page, theme);
        await rememberServerHeading(page);
        const problems = recordConsoleProblems(page);
        await page.goto(path);
        await expect(mainHeading(page)).toHaveText(heading);
        await content(page);
        await expectHydrated(page, theme);
        expect(await headingIsTheServers(page), 'the app kept the server’s nodes').toBe(true);
        await expect(spinner(page)).toHaveCount(0);
        // Everything the page needed came with it; images aside, it asked the API for nothing.
        expect(apiRequests.filter((request) => !isImageRequest(request))).toEqual([]);
        expect(problems).toEqual([]);
      });
    }
  }

  test('the app searches and sorts as the visitor types and chooses: no Apply button, no page load @both', async ({ page }) => {
    await page.goto('/products');
    await expectHydrated(page, 'light');
    await expect(page.getByRole('button', { name: 'Apply', exact: true })).toHaveCount(0);
    // A mark on this document: a page load would wipe it.
    await page.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
    const search = page.getByRole('searchbox', { name: 'Search products' });
    await search.fill('gold');
    await search.press('Enter');
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption('priceHighLow');
    await expect(page).toHaveURL('/products?q=gold&sort=priceHighLow');
    await expect(productCards(page).getByRole('heading')).toHaveText(expectedTitles(FIXTURE_PRODUCTS, 'gold', 'priceHighLow'));
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage), 'the form was not sent').toBe(true);
  });

  test('the page is there before its scripts run @both', async ({ page }) => {
    let releaseScripts!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (releaseScripts = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    const problems = recordConsoleProblems(page);
    // (Module scripts hold DOMContentLoaded back, so the test goes on as soon as the page starts arriving.)
    await page.goto('/products', { waitUntil: 'commit' });
    await expect(mainHeading(page)).toHaveText('Our Products');
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    await expect(spinner(page)).toHaveCount(0);
    releaseScripts();
    await expectHydrated(page, 'light');
    expect(problems).toEqual([]);
  });

  test('after hydration the app navigates as before: a client-side fetch shows the spinner, then the list', async ({
    page,
    apiRequests,
  }) => {
    await page.goto(`/productdetails/${PRODUCT.id}`);
    await expectHydrated(page, 'light');
    await page.getByRole('link', { name: 'Back to Products' }).click();
    await expect(mainHeading(page)).toHaveText('Our Products');
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    expect(apiRequests).toContain('/api/products');
  });
});

test.describe('Server rendering of a failure', () => {
  test.use({ siteKind: 'fresh' });

  test('a catalogue that cannot be had arrives as the alert, hydrates without retrying, and "Try again" works @both', async ({
    page,
    stub,
    apiRequests,
  }) => {
    await stub.setMode('status500');
    const problems = recordConsoleProblems(page);
    const response = await page.goto('/products');
    expect(response?.status()).toBe(503);
    await expect(page.getByRole('alert')).toHaveText(/We couldn’t load the products\. Please check your connection and try again\./);
    await expect(spinner(page)).toHaveCount(0);
    await expectHydrated(page, 'light');
    expect(apiRequests).toEqual([]);

    await stub.setMode('normal');
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
    // The page that failed could not say how large the catalogue is: its first page does, then the list follows.
    expect(apiRequests.filter((request) => !isImageRequest(request))).toEqual(['/api/products/search', '/api/products']);
    expect(problems).toEqual([]);
  });
});
