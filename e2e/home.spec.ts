import type { Page } from '@playwright/test';
import { dollars, FIXTURE_PRODUCTS } from './support/catalogue.ts';
import { expect, test } from './fixtures/test.ts';
import { waitForHomePage } from './support/page-helpers.ts';

const GALLERY = FIXTURE_PRODUCTS.slice(0, 6);

/**
 * Slides per view as Swiper lays them out: the carousel's inner width over one slide's pitch (its layout width
 * plus the spacing). Layout widths (offsetWidth) ignore the scale transform of the non-active slides.
 */
async function carouselGeometry(page: Page) {
  return page.evaluate(() => {
    const swiper = document.querySelector<HTMLElement>('.swiper')!;
    const style = getComputedStyle(swiper);
    const inner = swiper.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const slides = [...document.querySelectorAll<HTMLElement>('.swiper-slide')];
    // Computed sizes are the layout's (fractional, untouched by the scale transform of the side slides).
    const widths = slides.map((slide) => parseFloat(getComputedStyle(slide).width));
    const gaps = slides.map((slide) => parseFloat(getComputedStyle(slide).marginRight));
    const width = widths[0]!;
    const spacing = gaps[0]!;
    return { inner, widths, gaps, width, spacing, perView: (inner + spacing) / (width + spacing) };
  });
}

/** The `data-swiper-slide-index` (position in the product list) of the active slide. */
function activeIndex(page: Page): Promise<string | null> {
  return page.locator('.swiper-slide-active').getAttribute('data-swiper-slide-index');
}

test.describe('Home', () => {
  test('is headed Products Gallery and shows exactly the first six products, each slide one link with title and dollar price', async ({
    page,
  }) => {
    await page.goto('/');
    await waitForHomePage(page);
    await expect(page).toHaveTitle(/Products Gallery/);

    const slides = page.locator('.swiper-slide');
    await expect(slides).toHaveCount(6);
    const seen = new Map<string, { href: string | null; text: string }>();
    for (const slide of await slides.all()) {
      const links = slide.getByRole('link');
      await expect(links).toHaveCount(1);
      seen.set((await slide.getAttribute('data-swiper-slide-index'))!, {
        href: await links.getAttribute('href'),
        text: await links.innerText(),
      });
    }
    // Loop mode reorders the slides; data-swiper-slide-index is each one's place in the list.
    expect([...seen.keys()].sort()).toEqual(['0', '1', '2', '3', '4', '5']);
    for (const [index, product] of GALLERY.entries()) {
      const slide = seen.get(String(index))!;
      expect(slide.href).toBe(`/productdetails/${product.id}`);
      expect(slide.text).toContain(product.title);
      expect(slide.text).toContain(dollars(product.price));
      await expect(page.getByRole('link', { name: product.title }).getByRole('img', { name: product.title })).toHaveCount(1);
    }
    // The seventh product and later are not in the gallery.
    await expect(page.getByText(FIXTURE_PRODUCTS[6]!.title)).toHaveCount(0);
  });

  test('the carousel shows 1.2 slides per view on a phone, 20 px apart @mobile', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    const geometry = await carouselGeometry(page);
    expect(new Set(geometry.gaps)).toEqual(new Set([20]));
    expect(new Set(geometry.widths).size, 'all slides one width').toBe(1);
    expect(geometry.perView).toBeCloseTo(1.2, 1);
    // The centred slide is flanked by parts of its neighbours: a next slide starts inside the viewport.
    const next = await page.locator('.swiper-slide-next').boundingBox();
    expect(next!.x).toBeLessThan(375);
  });

  test('the carousel shows 3 slides per view from 1024 px and 2 from 640 px, 20 px apart', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    for (const [width, perView] of [
      [1280, 3],
      [1024, 3],
      [1023, 2],
      [700, 2],
      [640, 2],
      [639, 1.2],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await expect
        .poll(async () => Math.round((await carouselGeometry(page)).perView * 100) / 100, { message: `slides per view at ${width} px` })
        .toBeCloseTo(perView, 1);
      expect(new Set((await carouselGeometry(page)).gaps), `spacing at ${width} px`).toEqual(new Set([20]));
    }
  });

  test('autoplay moves to the next slide about every 2.5 s and loops from the sixth back to the first', async ({ page }) => {
    test.setTimeout(45_000);
    await page.addInitScript(() => {
      // Records every change of the active slide with the page's own clock, from the very first one.
      const changes: { index: string | null; at: number }[] = [];
      (window as unknown as { __slideChanges: typeof changes }).__slideChanges = changes;
      new MutationObserver(() => {
        const index = document.querySelector('.swiper-slide-active')?.getAttribute('data-swiper-slide-index') ?? null;
        if (index !== null && changes.at(-1)?.index !== index) changes.push({ index, at: performance.now() });
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.goto('/');
    await waitForHomePage(page);
    expect(await activeIndex(page)).toBe('0');

    const changes = () =>
      page.evaluate(() => (window as unknown as { __slideChanges: { index: string | null; at: number }[] }).__slideChanges);
    await expect
      .poll(async () => (await changes()).map((change) => change.index), { timeout: 30_000, intervals: [250] })
      .toEqual(['0', '1', '2', '3', '4', '5', '0']);
    // Not faster than the 2500 ms of docs/product.md (a generous margin below for timer and transition jitter).
    const times = (await changes()).map((change) => change.at);
    for (let step = 1; step < times.length; step += 1) expect(times[step]! - times[step - 1]!).toBeGreaterThan(2000);
  });

  test('autoplay keeps going after the visitor uses the carousel (it does not stop on interaction)', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    // Jump to the fourth product with the pagination, then take the pointer off the carousel.
    await page.locator('.swiper-pagination-bullet').nth(3).click();
    await expect.poll(() => activeIndex(page)).toBe('3');
    await page.mouse.move(0, 0);
    await expect.poll(() => activeIndex(page), { timeout: 8_000, message: 'autoplay should resume after a click' }).toBe('4');
  });

  test('a slide opens its product page', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    const active = page.locator('.swiper-slide-active').getByRole('link');
    const href = await active.getAttribute('href');
    // Autoplay may move the slide under the pointer; the link's own href is what must be followed.
    await page.locator(`.swiper-slide a[href="${href}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    const id = Number(href!.split('/').pop());
    await expect(page.getByRole('heading', { level: 1, name: GALLERY.find((p) => p.id === id)!.title })).toBeVisible();
  });

  test('See More opens the products list @both', async ({ page }) => {
    await page.goto('/');
    await waitForHomePage(page);
    await page.getByRole('link', { name: 'See More' }).click();
    await expect(page).toHaveURL(/\/products$/);
    await expect(page.getByRole('heading', { name: 'Our Products' })).toBeVisible();
  });
});
