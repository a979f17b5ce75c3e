import type { Page } from '@playwright/test';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';
import { categoryNames } from './support/catalogue.ts';
import { focusIndicatorOf, waitForHomePage, waitForProductsPage } from './support/page-helpers.ts';

/** What has focus, in words a failure message can show: role-ish tag plus accessible text. */
function describeFocus(page: Page): Promise<string> {
  return page.evaluate(() => {
    // The text of what is not hidden (the theme button holds both themes' names and shows one), as written.
    const visibleText = (root: Element) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      let text = '';
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement?.checkVisibility()) text += node.textContent;
      }
      return text.trim();
    };
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    const label =
      element.getAttribute('aria-label') ??
      ((element as HTMLInputElement).labels?.[0]?.textContent || null) ??
      (element instanceof HTMLInputElement ? element.placeholder : null) ??
      element.querySelector('img')?.getAttribute('alt') ??
      visibleText(element) ??
      '';
    return `${element.tagName.toLowerCase()}:${label.replace(/\s+/g, ' ').slice(0, 40)}`;
  });
}

/** Presses Tab `count` times from the top of a freshly loaded page, recording each stop and its focus indicator. */
async function tabStops(page: Page, count: number) {
  const stops: string[] = [];
  const invisible: string[] = [];
  for (let step = 0; step < count; step += 1) {
    await page.keyboard.press('Tab');
    const stop = await describeFocus(page);
    stops.push(stop);
    const indicator = await focusIndicatorOf(page);
    if (!indicator.visible) invisible.push(stop);
  }
  return { stops, invisible };
}

test.describe('Keyboard', () => {
  test('Tab walks the desktop bar, then the page, in order, always with a visible focus indicator', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const { stops, invisible } = await tabStops(page, 22);
    expect(stops).toEqual([
      'a:Skip to content',
      'a:Company Logo',
      'a:Home',
      'a:Products',
      'input:Search the catalogue',
      'button:Switch to dark theme',
      'input:Search products',
      'select:Filter by category',
      'select:Sort products',
      // The filters: the price range, the rating (one stop for the group), each category with its count (cut as
      // describeFocus cuts names).
      'input:From',
      'input:To',
      'input:Any rating',
      ...categoryNames(FIXTURE_PRODUCTS).map((name) =>
        `a:${name} (${FIXTURE_PRODUCTS.filter((product) => product.category === name).length})`.slice(0, 'a:'.length + 40),
      ),
      // Each card: its category badge, then the product (named by its title, its focus ring around the card).
      "a:men's clothing",
      expect.stringMatching(/^a:Fjallraven/),
      "a:men's clothing",
      expect.stringMatching(/^a:Mens Casual Premium/),
    ]);
    expect(invisible, 'stops without a visible focus indicator').toEqual([]);
  });

  test("Enter on a card's badge opens its category; on its product link, the product", async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    // The last stop before the cards: the filters' last category.
    const lastFilter = page.getByRole('navigation', { name: 'Categories' }).getByRole('link').last();
    await lastFilter.focus();
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe("a:men's clothing");
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/products?category=men%27s+clothing');
    await expect(page.getByRole('combobox', { name: 'Filter by category' })).toHaveValue("men's clothing");

    await lastFilter.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toMatch(/^a:Fjallraven/);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/productdetails/1');
  });

  test('the skip link moves focus to the page content', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe('input:Search products');
  });

  test('Tab walks the phone bar in order with a visible focus indicator @mobile', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    const { stops, invisible } = await tabStops(page, 5);
    expect(stops).toEqual(['a:Skip to content', 'a:Company Logo', 'summary:Search', 'button:Switch to dark theme', 'button:Open menu']);
    expect(invisible, 'stops without a visible focus indicator').toEqual([]);
  });

  test('the phone menu works by keyboard: Enter opens, Tab moves through the entries, Escape closes and returns focus @mobile', async ({
    page,
  }) => {
    await page.goto('/');
    await waitForHomePage(page);
    const button = page.getByRole('button', { name: /^(Open|Close) menu$/ });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect(menu).toBeVisible();

    // Focus is in the menu (or one Tab away from it), and Tab goes Home → Products.
    const home = menu.getByRole('link', { name: 'Home' });
    const products = menu.getByRole('link', { name: 'Products' });
    if (!(await home.evaluate((link) => link === document.activeElement))) await page.keyboard.press('Tab');
    await expect(home).toBeFocused();
    expect((await focusIndicatorOf(page)).visible, 'focus indicator on Home').toBe(true);
    await page.keyboard.press('Tab');
    await expect(products).toBeFocused();
    expect((await focusIndicatorOf(page)).visible, 'focus indicator on Products').toBe(true);

    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();

    // And Enter on an entry follows it and closes the menu.
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    if (!(await home.evaluate((link) => link === document.activeElement))) await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(products).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test('every carousel slide is reachable by Tab, and Enter follows the focused slide @both', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    await page.getByRole('heading', { name: 'Products Gallery' }).click();
    const reached: string[] = [];
    const stops: string[] = [];
    for (let step = 0; step < 20 && reached.length < 6; step += 1) {
      await page.keyboard.press('Tab');
      const href = await page.evaluate(() => {
        const element = document.activeElement;
        return element?.closest('.swiper-slide') && element instanceof HTMLAnchorElement ? element.getAttribute('href') : null;
      });
      stops.push(await describeFocus(page));
      if (href === null) continue;
      reached.push(href);
      const indicator = await focusIndicatorOf(page);
      expect(indicator.visible, `visible focus on the slide ${href}`).toBe(true);
      // The focused slide is brought into view.
      await expect(page.locator(`.swiper-slide a[href="${href}"]`)).toBeInViewport({ ratio: 0.5 });
    }
    expect([...reached].sort(), `slide links that kept focus after Tab; the stops were: ${stops.join(' → ')}`).toEqual(
      ['1', '2', '3', '4', '5', '6'].map((id) => `/productdetails/${id}`),
    );

    const focused = reached.at(-1)!;
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`${focused}$`));
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  });
});
