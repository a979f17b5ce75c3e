import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { waitForHomePage, waitForMenuAtRest, waitForProductsPage } from './support/page-helpers.ts';

/** The fixed top bar's state: height, and whether any of its layers blurs what is behind it. */
async function barState(page: Page) {
  return page.getByRole('banner').evaluate((header) => {
    const layers = [header, ...header.querySelectorAll<HTMLElement>(':scope > *, :scope > * > *')].filter(
      (element) => getComputedStyle(element).visibility !== 'hidden',
    );
    const blurred = layers.some((element) => {
      const style = getComputedStyle(element);
      return /blur\(/.test(style.backdropFilter) || /blur\(/.test(style.getPropertyValue('-webkit-backdrop-filter'));
    });
    return { height: Math.round(header.getBoundingClientRect().height), blurred };
  });
}

function menuButton(page: Page) {
  return page.getByRole('button', { name: /^(Open|Close) menu$/ });
}

function mobileMenu(page: Page) {
  return page.getByRole('navigation', { name: 'Menu' });
}

test.describe('Top bar', () => {
  test('roomy at the top, compact and blurred once scrolled more than 10 px', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const roomy = await barState(page);
    expect(roomy.blurred).toBe(false);

    await page.evaluate(() => window.scrollTo(0, 10));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(10);
    // Exactly 10 px is not "more than 10".
    expect(await barState(page)).toEqual(roomy);

    await page.evaluate(() => window.scrollTo(0, 11));
    await expect.poll(async () => (await barState(page)).blurred).toBe(true);
    await expect.poll(async () => (await barState(page)).height).toBeLessThan(roomy.height);

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => barState(page)).toEqual(roomy);
  });

  test('the round logo, about 60 px high, links to the root @both', async ({ page }) => {
    await page.goto('/products');
    const logo = page.getByRole('banner').getByRole('img', { name: 'Company Logo' });
    await expect(logo).toBeVisible();
    const box = (await logo.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(54);
    expect(box.height).toBeLessThanOrEqual(66);
    expect(await logo.evaluate((img) => getComputedStyle(img).borderRadius)).toMatch(/50%|\d{2,}px/);
    await page.getByRole('link', { name: 'Company Logo' }).click();
    await expect(page.getByRole('heading', { name: 'Products Gallery' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('on a desktop the entries sit in the bar and there is no hamburger', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    await expect(menuButton(page)).toBeHidden();
    const bar = page.getByRole('banner');
    await bar.getByRole('link', { name: 'Products', exact: true }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
    await bar.getByRole('link', { name: 'Home', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Products Gallery' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  test('on a phone the entries hide behind a hamburger that opens a full-screen menu @mobile', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    const bar = page.getByRole('banner');
    // Closed: no visible entries, the button says what it does.
    await expect(bar.getByRole('link', { name: 'Products', exact: true })).toBeHidden();
    await expect(menuButton(page)).toHaveAccessibleName('Open menu');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');

    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAccessibleName('Close menu');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(mobileMenu(page).getByRole('link')).toHaveText(['Home', 'Products']);
    // The overlay covers the whole screen.
    const overlay = await mobileMenu(page).evaluate((nav) => {
      const { x, y, width, height } = nav.parentElement!.getBoundingClientRect();
      return { x, y, width, height };
    });
    expect(overlay).toMatchObject({ x: 0, y: 0, width: 375, height: 800 });

    // Choosing an entry goes there and closes the menu.
    await mobileMenu(page).getByRole('link', { name: 'Products' }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(mobileMenu(page)).toBeHidden();
  });

  test('the open menu closes on a press outside it @mobile', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await menuButton(page).click();
    await expect(mobileMenu(page)).toBeVisible();
    await waitForMenuAtRest(mobileMenu(page));
    const panel = (await mobileMenu(page).boundingBox())!;
    // A press on the dimmed page beside the panel.
    expect(panel.x).toBeGreaterThan(20);
    await page.mouse.click(panel.x / 2, 600);
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(mobileMenu(page)).toBeHidden();
    // Nothing beneath was followed.
    await expect(page).toHaveURL(/\/products$/);
  });

  test('Escape closes the open menu and puts focus back on the button @mobile', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    await menuButton(page).click();
    await expect(mobileMenu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(mobileMenu(page)).toBeHidden();
    await expect(menuButton(page)).toBeFocused();
  });
});

test.describe('Page changes', () => {
  test('each page opens at the top after the previous one was scrolled @both', async ({ page, viewport }) => {
    // Visit every page once so chunks and data are cached: the next page then renders at full height at once,
    // and only a real scroll-to-top (not a short loading state) can bring the view back to 0.
    await page.goto('/productdetails/1');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'Company Logo' }).click();
    await waitForHomePage(page);
    await page.getByRole('link', { name: 'See More' }).click();
    await waitForProductsPage(page);
    // A short window makes every page taller than it.
    await page.setViewportSize({ width: viewport!.width, height: 400 });

    const scrollY = () => page.evaluate(() => window.scrollY);
    const maxScroll = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
    const scrollTo = async (y: number | 'bottom') => {
      await page.evaluate((target) => window.scrollTo(0, target === 'bottom' ? document.documentElement.scrollHeight : target), y);
      await expect.poll(scrollY).toBeGreaterThan(100);
    };

    // Products, scrolled → the logo in the fixed bar → Home.
    await scrollTo(1200);
    await page.getByRole('link', { name: 'Company Logo' }).click();
    await waitForHomePage(page);
    expect(await maxScroll(), 'Home is taller than the window (else this step proves nothing)').toBeGreaterThan(100);
    expect(await scrollY()).toBe(0);

    // Home, scrolled to the bottom → See More → Products.
    await scrollTo('bottom');
    await page.getByRole('link', { name: 'See More' }).click();
    await waitForProductsPage(page);
    expect(await maxScroll()).toBeGreaterThan(100);
    expect(await scrollY()).toBe(0);

    // Products, scrolled to product 1's card → its page.
    const card = page.locator('a[href="/productdetails/1"]');
    await card.evaluate((link) => link.scrollIntoView({ block: 'end' }));
    await expect.poll(scrollY).toBeGreaterThan(100);
    await card.click();
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    expect(await maxScroll()).toBeGreaterThan(100);
    expect(await scrollY()).toBe(0);
  });
});
