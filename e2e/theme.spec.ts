import type { Page } from '@playwright/test';
import { expect, test } from './fixtures/test.ts';
import { storeTheme, waitForHomePage, waitForProductsPage } from './support/page-helpers.ts';

const DARK_BACKGROUND = 'rgb(17, 17, 19)';

function htmlIsDark(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.classList.contains('dark'));
}

function storedTheme(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('theme'));
}

/**
 * Records, from before any page script runs, the theme the document had when the <body> was first parsed (before
 * anything can be painted) and in the first animation frame (which runs just before the first paint).
 */
async function recordEarliestTheme(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: Record<string, { dark: boolean; background: string }> = {};
    (window as unknown as { __earliestTheme: typeof seen }).__earliestTheme = seen;
    const record = (moment: string) => {
      if (seen[moment]) return;
      seen[moment] = {
        dark: document.documentElement.classList.contains('dark'),
        background: getComputedStyle(document.documentElement).backgroundColor,
      };
    };
    new MutationObserver((_mutations, observer) => {
      if (document.body) {
        record('bodyParsed');
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
    requestAnimationFrame(() => record('firstFrame'));
  });
}

function earliestTheme(page: Page) {
  return page.evaluate(
    () => (window as unknown as { __earliestTheme: Record<string, { dark: boolean; background: string }> }).__earliestTheme,
  );
}

test.describe('Theme', () => {
  test('the toggle switches to dark and back, marks <html> and stores the choice @both', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    expect(await htmlIsDark(page)).toBe(false);
    const toDark = page.getByRole('button', { name: 'Switch to dark theme' });
    const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

    await toDark.click();
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await storedTheme(page)).toBe('dark');
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(DARK_BACKGROUND);

    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(page.locator('html')).not.toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await storedTheme(page)).toBe('light');
    await expect(toDark).toBeVisible();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(lightBackground);
  });

  test('the switch changes <html> alone: the button’s icon and name follow the class, nothing is rendered again @both', async ({
    page,
  }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __mutations: string[] }).__mutations = seen;
      new MutationObserver((records) => {
        for (const record of records) seen.push(`${record.type} ${record.target.nodeName} ${record.attributeName ?? ''}`.trim());
      }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    const toDark = page.getByRole('button', { name: 'Switch to dark theme' });
    // The moon: the theme it switches to.
    await expect(toDark.locator('svg:visible')).toHaveCount(1);
    await expect(toDark.locator('svg:visible circle')).toHaveCount(0);

    await toDark.click();
    const toLight = page.getByRole('button', { name: 'Switch to light theme' });
    await expect(toLight).toBeVisible();
    // The sun, in the same button.
    await expect(toLight.locator('svg:visible circle')).toHaveCount(1);
    await expect(toLight.locator('svg:visible')).toHaveCount(1);
    await expect(page.locator('html')).not.toHaveAttribute('data-theme-switching');
    expect(await page.evaluate(() => (window as unknown as { __mutations: string[] }).__mutations)).toEqual([
      'attributes HTML data-theme-switching',
      'attributes HTML class',
      'attributes HTML data-theme-switching',
    ]);
  });

  test('a dark choice survives a reload with no flash of the light theme', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);

    await recordEarliestTheme(page);
    await page.reload();
    await waitForProductsPage(page);
    const earliest = await earliestTheme(page);
    expect(earliest.bodyParsed, 'dark before the body was parsed').toEqual({ dark: true, background: DARK_BACKGROUND });
    expect(earliest.firstFrame, 'dark in the first frame').toEqual({ dark: true, background: DARK_BACKGROUND });
    expect(await htmlIsDark(page)).toBe(true);
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();

    // And on a fresh visit to another page of the site.
    await page.goto('/productdetails/2');
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    expect(await htmlIsDark(page)).toBe(true);
    expect((await earliestTheme(page)).bodyParsed?.dark).toBe(true);
  });

  test('a stored value other than dark means light @both', async ({ page }) => {
    await storeTheme(page, 'purple');
    await recordEarliestTheme(page);
    await page.goto('/');
    await waitForHomePage(page);
    expect(await htmlIsDark(page)).toBe(false);
    expect((await earliestTheme(page)).bodyParsed?.dark).toBe(false);
    await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();

    for (const junk of ['DARK', 'dark ', 'true', '']) {
      await page.evaluate((value) => localStorage.setItem('theme', value), junk);
      await page.reload();
      await expect(page.getByRole('button', { name: 'Switch to dark theme' }), `stored ${JSON.stringify(junk)}`).toBeVisible();
      expect(await htmlIsDark(page), `stored ${JSON.stringify(junk)}`).toBe(false);
    }
  });
});
