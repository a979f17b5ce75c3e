import type { Page } from '@playwright/test';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';
import { expectedTitles } from './support/catalogue.ts';
import { holdApp } from './support/held-app.ts';
import { cardTitles, productCards, waitForApp } from './support/page-helpers.ts';

/**
 * A fast visitor acts on the server's page before the app has taken it over (docs/pages.md, "Before the app"): the
 * app's scripts are held while they type, choose, scroll and open the menu, then let through. The app takes the page
 * as the visitor left it: nothing they did is lost, undone or redrawn back to the served page.
 */

const SEARCH = 'JaCkEt';
const CATEGORY = "women's clothing";
const SORT = 'priceHighLow';

function searchBox(page: Page) {
  return page.getByRole('searchbox', { name: 'Search products' });
}

/** What the visitor sees in each frame the browser draws from now on, for `takeoverFrames`. */
async function recordFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const frames: { search: string; scrollY: number; cards: number }[] = [];
    Reflect.set(window, 'takeoverFrames', frames);
    const record = () => {
      frames.push({
        search: document.querySelector<HTMLInputElement>('main input[type="search"]')?.value ?? '',
        scrollY: Math.round(window.scrollY),
        cards: document.querySelectorAll('main li a[href^="/productdetails/"]').length,
      });
      requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
}

async function takeoverFrames(page: Page) {
  return page.evaluate(() => Reflect.get(window, 'takeoverFrames') as { search: string; scrollY: number; cards: number }[]);
}

/** Opens /products with the app held, once the server's list shows. */
async function openHeld(page: Page) {
  const app = await holdApp(page);
  await page.goto('/products', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { name: 'Our Products', level: 1 })).toBeVisible();
  await expect(productCards(page)).toHaveCount(FIXTURE_PRODUCTS.length);
  return app;
}

test.describe('Before the app has taken over', () => {
  test('typed, chosen, scrolled and opened: all of it kept when the app takes over @mobile', async ({ page }) => {
    const app = await openHeld(page);

    await searchBox(page).pressSequentially(SEARCH);
    await page.getByRole('combobox', { name: 'Filter by category' }).selectOption(CATEGORY);
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption(SORT);
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
    const menuButton = page.getByRole('button', { name: /^(Open|Close) menu$/ });
    await menuButton.click();
    // The menu opens without the app.
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await expect(menu.getByRole('link')).toHaveText(['Home', 'Products']);
    await expect(menu.getByRole('link', { name: 'Products' })).toBeInViewport();
    const entries = await page.evaluate(() => history.length);

    await recordFrames(page);
    app.release();
    await waitForApp(page);

    // The list as the visitor asked for it, in the URL too (replaced, not a new history entry).
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, SEARCH, SORT, CATEGORY));
    await expect(searchBox(page)).toHaveValue(SEARCH);
    const url = new URL(page.url());
    expect(Object.fromEntries(url.searchParams)).toEqual({ q: SEARCH, category: CATEGORY, sort: SORT });
    expect(await page.evaluate(() => history.length)).toBe(entries);
    // Where they were: 400 px down, the bar compact; the menu open, now the app's, and focus still on its button.
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
    await expect(page.getByRole('banner').locator('[data-compact="true"]')).toHaveCount(1);
    await expect(menuButton).toHaveAccessibleName('Close menu');
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    await expect(menuButton).toBeFocused();
    // Never a frame back at the top, or with the box emptied.
    const frames = await takeoverFrames(page);
    expect(frames.filter((frame) => frame.scrollY !== 400 || frame.search !== SEARCH)).toEqual([]);

    // And from here the menu is the app's: Escape closes it and hands focus back.
    await page.keyboard.press('Escape');
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();
  });

  test('the search box keeps its focus and caret, and the list follows it from the first frame the app draws @both', async ({ page }) => {
    const app = await openHeld(page);
    const box = searchBox(page);
    await box.pressSequentially(SEARCH);
    // The caret between "JaCk" and "Et".
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const scrollY = await page.evaluate(() => window.scrollY);

    await recordFrames(page);
    app.release();
    await waitForApp(page);

    const expected = expectedTitles(FIXTURE_PRODUCTS, SEARCH, 'none');
    await expect.poll(() => cardTitles(page)).toEqual(expected);
    await expect(box).toBeFocused();
    expect(await box.evaluate((input: HTMLInputElement) => [input.selectionStart, input.selectionEnd])).toEqual([4, 4]);
    expect(new URL(page.url()).search).toBe(`?q=${SEARCH}`);
    // Every frame: the visitor's text, where they were; the list went from the served 20 to the matches, never back.
    const frames = await takeoverFrames(page);
    expect(frames.filter((frame) => frame.search !== SEARCH || frame.scrollY !== scrollY)).toEqual([]);
    const firstFiltered = frames.findIndex((frame) => frame.cards === expected.length);
    expect(firstFiltered).toBeGreaterThanOrEqual(0);
    expect(frames.slice(firstFiltered).filter((frame) => frame.cards !== expected.length)).toEqual([]);

    // Typing on is the app's: the list follows.
    await page.keyboard.press('End');
    await box.press('Backspace');
    await box.press('Backspace');
    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'JaCk', 'none'));
  });

  test('a sort chosen and a page scrolled before the app starts: the order as chosen, the bar compact, no jump to the top @desktop', async ({
    page,
  }) => {
    const app = await openHeld(page);
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption('nameAZ');
    await page.mouse.wheel(0, 400);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);

    app.release();
    await waitForApp(page);

    await expect.poll(() => cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, '', 'nameAZ'));
    expect(new URL(page.url()).search).toBe('?sort=nameAZ');
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
    await expect(page.getByRole('banner').locator('[data-compact="true"]')).toHaveCount(1);
    // The theme button is the app's from now on, and works.
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveClass('dark');
  });

  test('a link followed after the takeover still opens its page at the top @mobile', async ({ page }) => {
    const app = await openHeld(page);
    await page.evaluate(() => window.scrollTo(0, 400));
    app.release();
    await waitForApp(page);
    await expect(page.getByRole('banner').locator('[data-compact="true"]')).toHaveCount(1);
    await page.locator('main a[href^="/productdetails/"]').nth(2).click();
    await expect(page).toHaveURL(/\/productdetails\/\d+$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
