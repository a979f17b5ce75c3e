import type { Page } from '@playwright/test';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';
import { holdApp } from './support/held-app.ts';
import { cardTitles, expectNoSeriousAxeViolations, storeTheme, waitForApp, waitForHomePage } from './support/page-helpers.ts';

/**
 * The search in the bar (docs/product.md, "Search in the bar"): on every page, a GET form of /products; with scripts a
 * combobox suggesting products and categories. What it should suggest is worked out here from the data.
 */

const TEXT = 'mens';
const MATCHES = FIXTURE_PRODUCTS.filter(({ title }) => title.toLowerCase().includes(TEXT));

const box = (page: Page) => page.getByRole('banner').getByRole('searchbox', { name: 'Search the catalogue' });
const combobox = (page: Page) => page.getByRole('banner').getByRole('combobox', { name: 'Search the catalogue' });

/** On a phone the box is behind the bar's search button. */
async function unfold(page: Page) {
  const button = page.getByRole('banner').locator('summary[aria-label="Search"]');
  // Once the server's bar is drawn.
  await expect(page.getByRole('img', { name: 'Company Logo' })).toBeVisible();
  if (await button.isVisible()) await button.click();
}

test.describe('Search in the bar, with scripts', () => {
  test('suggests products as typed; ↓ and Enter open the one chosen @both', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    await unfold(page);
    await combobox(page).pressSequentially(TEXT);
    const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await expect(options).toHaveText(
      MATCHES.slice(0, 6).map(({ title }) => new RegExp(`^${title.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)),
    );
    await expect(options.first().locator('mark')).toHaveText(/mens/i);
    await page.keyboard.press('ArrowDown');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/productdetails/${MATCHES[0]!.id}`);
  });

  test('Enter with no choice opens the products list searched for the text; Escape closes the list @both', async ({ page }) => {
    await page.goto('/productdetails/1');
    await unfold(page);
    await combobox(page).pressSequentially('jacket');
    await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox', { name: 'Suggestions' })).toBeHidden();
    await expect(combobox(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/products?q=jacket');
    const expected = FIXTURE_PRODUCTS.filter(({ title }) => title.toLowerCase().includes('jacket')).map(({ title }) => title);
    await expect.poll(() => cardTitles(page)).toEqual(expected);
    // The products page's own box is another: its placeholder is the page's.
    await expect(page.getByRole('searchbox', { name: 'Search products' })).toHaveValue('jacket');
    await expect(page.getByRole('banner').locator('input[name="q"]')).toHaveAttribute('placeholder', 'Find a product or category');
  });

  test('axe finds nothing serious with the suggestions open, both themes @both', async ({ page }) => {
    await storeTheme(page, 'light');
    await page.goto('/');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((value) => localStorage.setItem('theme', value), theme);
      await page.reload();
      await waitForHomePage(page);
      await unfold(page);
      await combobox(page).pressSequentially(TEXT);
      await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first()).toBeVisible();
      await expectNoSeriousAxeViolations(page, `bar search, ${theme} theme`);
    }
  });
});

test.describe('Search in the bar, without scripts', () => {
  test.use({ javaScriptEnabled: false });

  test('is a plain GET form of /products @both', async ({ page }) => {
    await page.goto('/');
    await unfold(page);
    await box(page).fill('JaCkEt');
    await box(page).press('Enter');
    await expect(page).toHaveURL('/products?q=JaCkEt');
    const expected = FIXTURE_PRODUCTS.filter(({ title }) => title.toLowerCase().includes('jacket')).map(({ title }) => title);
    expect(await cardTitles(page)).toEqual(expected);
  });
});

test.describe('Search in the bar, before the app takes over', () => {
  test('text typed and sent before the app runs searches the products list @both', async ({ page }) => {
    const app = await holdApp(page);
    await page.goto('/productdetails/2', { waitUntil: 'commit' });
    await unfold(page);
    await box(page).fill(TEXT);
    await box(page).press('Enter');
    await expect(page).toHaveURL(`/products?q=${TEXT}`);
    app.release();
    await waitForApp(page);
    await expect.poll(() => cardTitles(page)).toEqual(MATCHES.map(({ title }) => title));
  });

  test('text typed before the app runs is the app’s, and suggested from @desktop', async ({ page }) => {
    const app = await holdApp(page);
    await page.goto('/', { waitUntil: 'commit' });
    await box(page).fill('men');
    app.release();
    await waitForApp(page);
    await combobox(page).press('s');
    await expect(combobox(page)).toHaveValue(TEXT);
    await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option')).toHaveCount(Math.min(6, MATCHES.length));
  });
});
