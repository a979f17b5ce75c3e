import type { Page } from '@playwright/test';
import { expect, FIXTURE_PRODUCTS, test } from './fixtures/test.ts';

/** What the page's first photo and the head's image preload name, as the browser sees them. */
function leadPhoto(page: Page, selector: string) {
  return page.evaluate((imgSelector) => {
    const preloads = [...document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="image"]')];
    const img = document.querySelector<HTMLImageElement>(imgSelector);
    return {
      preloads: preloads.map((link) => ({ srcset: link.getAttribute('imagesrcset'), sizes: link.getAttribute('imagesizes') })),
      img: img && { srcset: img.getAttribute('srcset'), sizes: img.getAttribute('sizes'), current: img.currentSrc },
    };
  }, selector);
}

test.describe('The head of server-rendered pages', () => {
  for (const { path, image, name } of [
    { path: '/productdetails/2', image: '/api/products/2/image', name: 'the detail photo' },
    { path: '/products?sort=priceHighLow', image: null, name: 'the first card of the sorted list' },
    { path: '/', image: '/api/products/1/image', name: 'the first slide' },
  ]) {
    /** The lead photo's image route: the most expensive product's for the list sorted by price, high to low. */
    const route = image ?? `/api/products/${[...FIXTURE_PRODUCTS].sort((a, b) => b.price - a.price)[0]!.id}/image`;
    const selector = `img[srcset^="${route}?w="]`;

    test(`${path}: ${name} is preloaded in the head with its <img>'s own srcset and sizes @both`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator(selector).first()).toBeVisible();
      const { preloads, img } = await leadPhoto(page, selector);
      // The head's preload, and React's own beside the markup: each names what the <img> names.
      const ofThisPhoto = preloads.filter((preload) => preload.srcset?.startsWith(`${route}?w=`));
      expect(ofThisPhoto.length).toBeGreaterThanOrEqual(1);
      for (const preload of ofThisPhoto) expect(preload).toEqual({ srcset: img!.srcset, sizes: img!.sizes });
      const inHead = await page.evaluate(
        () => document.head.querySelector('link[rel="preload"][as="image"][fetchpriority="high"]') !== null,
      );
      expect(inHead).toBe(true);
    });

    // Desktop only: in Chromium's phone emulation the <img> alone is fetched at two widths (its first pick is made
    // before the viewport width applies), with or without any preload, so a count there says nothing of the preload.
    test(`${path}: ${name} is downloaded once, the variant the <img> shows`, async ({ page }) => {
      const downloads: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === route) downloads.push(url.search);
      });
      await page.goto(path);
      await page.waitForFunction((imgSelector) => document.querySelector<HTMLImageElement>(imgSelector)?.complete === true, selector);
      const { img } = await leadPhoto(page, selector);
      expect(downloads).toHaveLength(1);
      expect(img!.current).toContain(`${route}${downloads[0]}`);
    });
  }

  test('the server’s <title> is the one the app keeps after hydration, and a product page carries its JSON-LD', async ({
    browser,
    baseURL,
  }) => {
    const product = FIXTURE_PRODUCTS[1]!;
    const path = `/productdetails/${product.id}`;
    const withoutScript = await browser.newContext({ javaScriptEnabled: false, baseURL: baseURL! });
    const staticPage = await withoutScript.newPage();
    await staticPage.goto(path);
    const serverTitle = await staticPage.title();
    const jsonLd = JSON.parse((await staticPage.locator('script[type="application/ld+json"]').textContent()) ?? 'null') as Record<
      string,
      unknown
    >;
    await withoutScript.close();

    expect(serverTitle).toBe(`${product.title} · Catalogue`);
    expect(jsonLd).toMatchObject({ '@type': 'Product', name: product.title, offers: { priceCurrency: 'USD' } });

    const context = await browser.newContext({ baseURL: baseURL! });
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await page.title()).toBe(serverTitle);
    await context.close();
  });
});
