import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import {
  expectNoSeriousAxeViolations,
  spinner,
  storeTheme,
  waitForHomePage,
  waitForMenuAtRest,
  waitForProductsPage,
} from './support/page-helpers.ts';

/** Every screen and state a visitor can reach, each with what shows it is ready. */
const SCREENS: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { name: 'Home', path: '/', ready: waitForHomePage },
  { name: 'Products', path: '/products', ready: waitForProductsPage },
  {
    name: 'Products of one category (a hostile name)',
    path: `/products?${new URLSearchParams({ category: `<script>alert('category')</script> 100% "kids"?#` }).toString()}`,
    ready: waitForProductsPage,
  },
  {
    name: 'Products, empty result',
    path: '/products?q=zzz',
    ready: async (page) => {
      await expect(page.getByText('No products found.')).toBeVisible();
    },
  },
  {
    name: 'Product detail',
    path: '/productdetails/1',
    ready: async (page) => {
      // The product's own stars (its related products' cards, below, have theirs), and those cards.
      await expect(
        page
          .getByRole('main')
          .getByRole('img', { name: /^Rated/ })
          .first(),
      ).toBeVisible();
      await expect(page.getByRole('region', { name: 'Related products' }).getByRole('article')).toHaveCount(3);
    },
  },
  {
    name: 'Invalid product id',
    path: '/productdetails/abc',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Invalid Product ID' })).toBeVisible();
    },
  },
  {
    name: 'Not-found page',
    path: '/no-such-page',
    ready: async (page) => {
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    },
  },
];

async function checkBothThemes(page: Page, label: string, open: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await open();
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /(^|\s)dark(\s|$)/ : /^(?!.*\bdark\b)/);
    await expectNoSeriousAxeViolations(page, `${label}, ${theme} theme`);
  }
}

test.describe('Accessibility (axe: no serious or critical violations, both themes)', () => {
  for (const screen of SCREENS) {
    test(`${screen.name} (${screen.path}) @both`, async ({ page }) => {
      await storeTheme(page, 'light');
      await page.goto(screen.path);
      await checkBothThemes(page, screen.name, async () => {
        await page.reload();
        await screen.ready(page);
        await expect(spinner(page)).toHaveCount(0);
      });
    });
  }

  test('the open mobile menu @mobile', async ({ page }) => {
    await storeTheme(page, 'light');
    await page.goto('/products');
    await checkBothThemes(page, 'open mobile menu', async () => {
      await page.reload();
      await waitForProductsPage(page);
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Menu' });
      await expect(menu).toBeVisible();
      await waitForMenuAtRest(menu);
    });
  });
});
