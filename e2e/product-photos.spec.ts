import type { Locator, Page } from '@playwright/test';
import { IMAGE_WIDTHS } from '@catalogue/shared/image-widths';
import { expect, test } from './fixtures/test.ts';
import { productCards, waitForHomePage, waitForProductsPage } from './support/page-helpers.ts';

// Real photos, portrait and landscape (370–1,049 × 333–1,500 px), from the upstream double's photo mode.
test.use({ siteKind: 'fresh', stubOptions: { photos: true } });

/** Where one photo sits, as the browser lays it out and draws it. */
interface PhotoGeometry {
  alt: string;
  naturalWidth: number;
  naturalHeight: number;
  frame: { left: number; top: number; width: number; height: number };
  /** The photo as drawn: the image box with object-fit: contain applied. */
  drawn: { left: number; top: number; width: number; height: number };
  /** The image box's layout width (transforms aside), and what its `sizes` says it is at this viewport. */
  layoutWidth: number;
  sizesWidth: number;
  srcset: string;
  loading: string | null;
  fetchPriority: string | null;
  currentSrc: string;
}

/** Measures every product photo matched by `images` that has loaded. */
async function photoGeometry(images: Locator): Promise<PhotoGeometry[]> {
  return images.evaluateAll((elements) =>
    (elements as HTMLImageElement[])
      .filter((image) => image.complete && image.naturalWidth > 0)
      .map((image) => {
        const box = image.getBoundingClientRect();
        const frame = image.parentElement!.getBoundingClientRect();
        const ratio = image.naturalWidth / image.naturalHeight;
        const width = Math.min(box.width, box.height * ratio);
        const height = Math.min(box.height, box.width / ratio);
        // The first entry of `sizes` whose media condition holds, laid out by the browser itself.
        const entries = image.sizes.split(/,\s*(?![^()]*\))/);
        const chosen = entries.find((entry) => !entry.startsWith('(') || matchMedia(entry.slice(0, entry.indexOf(')') + 1)).matches) ?? '';
        const probe = document.createElement('div');
        probe.style.width = chosen.startsWith('(') ? chosen.slice(chosen.indexOf(')') + 1).trim() : chosen;
        document.body.append(probe);
        const sizesWidth = probe.getBoundingClientRect().width;
        probe.remove();
        return {
          alt: image.alt,
          naturalWidth: image.naturalWidth,
          naturalHeight: image.naturalHeight,
          frame: { left: frame.left, top: frame.top, width: frame.width, height: frame.height },
          drawn: { left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height },
          layoutWidth: image.offsetWidth,
          sizesWidth,
          srcset: image.srcset,
          loading: image.getAttribute('loading'),
          fetchPriority: image.getAttribute('fetchpriority'),
          currentSrc: image.currentSrc,
        };
      }),
  );
}

/** Every photo is whole inside its square frame and centred in it; its `sizes` says how wide it is drawn. */
function expectWholeAndCentred(photos: PhotoGeometry[]) {
  for (const { alt, frame, drawn, layoutWidth, sizesWidth, srcset } of photos) {
    const where = `${alt}: photo ${JSON.stringify(drawn)} in frame ${JSON.stringify(frame)}`;
    expect(Math.abs(frame.width - frame.height), `${alt}: the frame is square`).toBeLessThanOrEqual(1);
    expect(drawn.left, where).toBeGreaterThanOrEqual(frame.left - 0.5);
    expect(drawn.top, where).toBeGreaterThanOrEqual(frame.top - 0.5);
    expect(drawn.left + drawn.width, where).toBeLessThanOrEqual(frame.left + frame.width + 0.5);
    expect(drawn.top + drawn.height, where).toBeLessThanOrEqual(frame.top + frame.height + 0.5);
    expect(Math.abs(drawn.left + drawn.width / 2 - (frame.left + frame.width / 2)), `${where}: centred across`).toBeLessThanOrEqual(1);
    expect(Math.abs(drawn.top + drawn.height / 2 - (frame.top + frame.height / 2)), `${where}: centred down`).toBeLessThanOrEqual(1);
    expect(Math.abs(sizesWidth - layoutWidth), `${alt}: sizes says ${sizesWidth} px, drawn ${layoutWidth} px`).toBeLessThanOrEqual(4);
    expect(srcset.split(', ').map((candidate) => candidate.split(' ')[1])).toEqual(IMAGE_WIDTHS.map((width) => `${width}w`));
  }
}

/** Both shapes were among the photos checked, so the rule is proven for each. */
function expectPortraitAndLandscape(photos: PhotoGeometry[]) {
  expect(
    photos.some((photo) => photo.naturalHeight > photo.naturalWidth),
    'a portrait photo was checked',
  ).toBe(true);
  expect(
    photos.some((photo) => photo.naturalWidth > photo.naturalHeight),
    'a landscape photo was checked',
  ).toBe(true);
}

/** Brings each photo into view in turn and waits until it has loaded. */
async function loadEach(page: Page, images: Locator) {
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    // Waiting, not timing: on a busy machine a cold variant can take a while.
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0), { timeout: 30_000 })
      .toBe(true);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

test.describe('Product photos', () => {
  test('are whole and centred in every card, the first card’s first and the rest lazy @both', async ({ page }) => {
    await page.goto('/products');
    await waitForProductsPage(page);
    const images = productCards(page).getByRole('img').and(page.locator('img'));
    const attributes = await images.evaluateAll((elements) =>
      elements.map((image) => [image.getAttribute('loading'), image.getAttribute('fetchpriority')]),
    );
    expect(attributes[0]).toEqual(['eager', 'high']);
    expect(attributes.slice(1).every(([loading, priority]) => loading === 'lazy' && priority === null)).toBe(true);

    await loadEach(page, images);
    const photos = await photoGeometry(images);
    expect(photos).toHaveLength(attributes.length);
    expectWholeAndCentred(photos);
    expectPortraitAndLandscape(photos);
  });

  test('are whole and centred in the carousel, the centred slide’s first and the rest lazy @both', async ({ page }) => {
    // Still slides (no autoplay for reduced motion), so each is measured where it rests.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await waitForHomePage(page);
    const images = page.locator('.swiper-slide img');
    // The first product's slide, centred when the carousel starts.
    const first = page.locator('.swiper-slide[data-swiper-slide-index="0"] img');
    await expect(page.locator('.swiper-slide-active img')).toHaveAttribute('alt', (await first.getAttribute('alt'))!);
    await expect(first).toHaveAttribute('fetchpriority', 'high');
    await expect(first).toHaveAttribute('loading', 'eager');
    await expect(images.and(page.locator('[fetchpriority]'))).toHaveCount(1);
    await expect(images.and(page.locator('[loading="lazy"]'))).toHaveCount((await images.count()) - 1);

    await expect.poll(async () => (await photoGeometry(first)).length).toBe(1);
    const photos = await photoGeometry(images);
    expectWholeAndCentred(photos);
  });

  test('arrive as AVIF variants no wider than their layout needs @both', async ({ page }) => {
    const photos: { url: string; contentType: string | undefined }[] = [];
    page.on('response', (response) => {
      if (/\/api\/products\/\d+\/image/.test(response.url()))
        photos.push({ url: response.url(), contentType: response.headers()['content-type'] });
    });
    await page.goto('/products');
    await waitForProductsPage(page);
    const images = productCards(page).getByRole('img').and(page.locator('img'));
    await expect.poll(async () => (await photoGeometry(images.first())).length).toBe(1);
    const scale = await page.evaluate(() => devicePixelRatio);
    for (const photo of await photoGeometry(images)) {
      const needed = IMAGE_WIDTHS.find((width) => width >= photo.sizesWidth * scale) ?? IMAGE_WIDTHS.at(-1);
      expect(new URL(photo.currentSrc).search, photo.alt).toBe(`?w=${needed}`);
      // Never upscaled: a photo narrower than the variant comes at its own width.
      expect(photo.naturalWidth).toBeLessThanOrEqual(needed!);
    }
    expect(photos.length).toBeGreaterThan(0);
    for (const { url, contentType } of photos) {
      expect(new URL(url).searchParams.get('w'), url).not.toBeNull();
      expect(contentType, url).toBe('image/avif');
    }
  });

  for (const id of [1, 6]) {
    test(`are whole and centred on the detail page, loaded first (product ${id}) @both`, async ({ page }) => {
      await page.goto(`/productdetails/${id}`);
      // The product's own article, the first: its related products' cards follow it.
      const image = page.getByRole('article').first().locator('img');
      await expect(image).toHaveAttribute('fetchpriority', 'high');
      await expect(image).toHaveAttribute('loading', 'eager');
      await expect.poll(async () => (await photoGeometry(image)).length).toBe(1);
      const [photo] = await photoGeometry(image);
      expectWholeAndCentred([photo!]);
      // Product 1's photo is portrait (1,049 × 1,500) and product 6's landscape (900 × 676).
      expect(photo!.naturalHeight > photo!.naturalWidth).toBe(id === 1);
    });
  }
});
