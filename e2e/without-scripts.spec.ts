import type { Page } from '@playwright/test';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';
import { EMBEDDED_PRODUCTS, expectedTitles } from './support/catalogue.ts';
import { cardTitles, expectNoSeriousAxeViolations, waitForMenuAtRest } from './support/page-helpers.ts';

/**
 * With JavaScript off (docs/pages.md, "In the browser"): every page's navigation is reachable by keyboard at
 * every width, the phone menu opens and closes, the toolbar and the pages of the list work through the server, and
 * no control is announced that does nothing (the theme button, which needs the app, is not shown).
 */

test.use({ javaScriptEnabled: false });

function menuButton(page: Page) {
  return page.getByRole('button', { name: /^(Open|Close) menu$/ });
}

function mobileMenu(page: Page) {
  return page.getByRole('navigation', { name: 'Menu' });
}

/** The accessible names of every button the page announces. */
async function announcedButtons(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const button of await page.getByRole('button').all())
    names.push((await button.getAttribute('aria-label')) ?? (await button.innerText()));
  return names;
}

test.describe('Without JavaScript', () => {
  test('Tab reaches the menu, which opens and leads to Home and Products @mobile', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Products Gallery' })).toBeVisible();
    expect(await announcedButtons(page)).toEqual(['Open menu']);

    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Company Logo' })).toBeFocused();
    // The bar's search button, which unfolds the search box (e2e/bar-search.spec.ts).
    await page.keyboard.press('Tab');
    await expect(page.getByRole('banner').locator('summary[aria-label="Search"]')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menuButton(page)).toBeFocused();
    await expect(mobileMenu(page)).toBeHidden();

    await page.keyboard.press('Enter');
    await expect(mobileMenu(page)).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(mobileMenu(page).getByRole('link', { name: 'Home' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(mobileMenu(page).getByRole('link', { name: 'Products' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
    await expect(mobileMenu(page)).toBeHidden();
  });

  test('the menu closes on Escape and on a press beside it @mobile', async ({ page }) => {
    await page.goto('/products');
    await menuButton(page).click();
    await expect(mobileMenu(page)).toBeVisible();
    // It slides in over the whole screen, its panel on the right.
    await waitForMenuAtRest(mobileMenu(page));
    const panel = (await mobileMenu(page).boundingBox())!;
    expect(panel.x + panel.width).toBe(375);
    await page.keyboard.press('Escape');
    await expect(mobileMenu(page)).toBeHidden();

    await menuButton(page).click();
    await expect(mobileMenu(page)).toBeVisible();
    await page.mouse.click(panel.x / 2, 600);
    await expect(mobileMenu(page)).toBeHidden();
    await expect(page).toHaveURL(/\/products$/);
  });

  test('Tab reaches Home and Products in the bar @desktop', async ({ page }) => {
    await page.goto('/productdetails/1');
    expect(await announcedButtons(page)).toEqual([]);
    const bar = page.getByRole('banner');
    for (const name of ['Skip to content', 'Company Logo', 'Home', 'Products']) {
      await page.keyboard.press('Tab');
      await expect(
        name === 'Skip to content' ? page.getByRole('link', { name }) : bar.getByRole('link', { name, exact: true }),
      ).toBeFocused();
    }
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/products$/);
  });

  test('search, category and sort go through the server @both', async ({ page }) => {
    await page.goto('/products');
    expect(await announcedButtons(page)).toEqual(expect.arrayContaining(['Apply']));
    await page.getByRole('searchbox', { name: 'Search products' }).fill('JaCkEt');
    await page.keyboard.press('Enter');
    // The form sends every field, the menus' defaults too.
    await expect(page).toHaveURL(/\/products\?q=JaCkEt&/);
    expect(await cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'JaCkEt', 'none'));

    await page.getByRole('combobox', { name: 'Filter by category' }).selectOption("women's clothing");
    await page.getByRole('combobox', { name: 'Sort products' }).selectOption('priceHighLow');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect(page).toHaveURL(/category=/);
    // The filters' fields too, empty: no filter (e2e/filters.spec.ts sets them).
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      q: 'JaCkEt',
      category: "women's clothing",
      sort: 'priceHighLow',
      minPrice: '',
      maxPrice: '',
      minRating: '',
    });
    expect(await cardTitles(page)).toEqual(expectedTitles(FIXTURE_PRODUCTS, 'JaCkEt', 'priceHighLow', "women's clothing"));
  });
});

/**
 * axe is a script run in the page, which needs JavaScript on: here the page's own scripts are refused instead, so what
 * axe reads is the server's HTML as no script of the page has touched it (the theme class too).
 */
test.describe("Without the page's scripts", () => {
  test.use({ javaScriptEnabled: true });

  for (const theme of ['light', 'dark'] as const) {
    test(`axe finds nothing serious on Home, Products, a product and the open menu, ${theme} @both`, async ({ page, viewport }) => {
      await page.route(/\.js(\?|$)/, (route) => route.abort());
      for (const path of ['/', '/products', '/productdetails/1']) {
        await page.goto(path);
        // What theme-init.js would have put on for a visitor who chose dark.
        if (theme === 'dark') {
          await page.evaluate(() => document.documentElement.classList.add('dark'));
          // The colours change through a short transition; axe must read them once they have arrived. (Not those of
          // cards skipped far below the screen, content-visibility: auto: Chromium does not advance an animation there,
          // so its promise would wait until the card is drawn.)
          await page.evaluate(() =>
            Promise.all(
              document
                .getAnimations()
                .filter(
                  (animation) =>
                    (animation.effect as KeyframeEffect | null)?.target?.checkVisibility({ contentVisibilityAuto: true }) ?? true,
                )
                .map((animation) => animation.finished),
            ),
          );
        }
        expect(await page.evaluate(() => Object.keys(document.getElementById('root')!).some((key) => key.startsWith('__react')))).toBe(
          false,
        );
        await expectNoSeriousAxeViolations(page, `${path} without scripts, ${theme}`);
      }
      if (viewport!.width < 1024) {
        await menuButton(page).click();
        const menu = mobileMenu(page);
        await expect(menu).toBeVisible();
        await waitForMenuAtRest(menu);
        await expectNoSeriousAxeViolations(page, `the open menu without scripts, ${theme}`);
      }
    });
  }
});

test.describe('Without JavaScript, a catalogue of two pages', () => {
  test.use({ siteKind: 'embedded' });

  test('the pages of the list are plain links @mobile', async ({ page }) => {
    await page.goto('/products?sort=nameAZ');
    const sorted = expectedTitles(EMBEDDED_PRODUCTS, '', 'nameAZ');
    expect(await cardTitles(page)).toEqual(sorted.slice(0, 24));
    await page.getByRole('navigation', { name: 'Pages of products' }).getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(/\/products\?sort=nameAZ&page=2$/);
    expect(await cardTitles(page)).toEqual(sorted.slice(24));
  });
});
