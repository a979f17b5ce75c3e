import { productPhoto } from '@catalogue/testing/photos';
import { describe, expect, it } from 'vitest';
import type { ProductImage } from '../catalogue/product-source.js';
import { createImageCache } from './image-cache.js';
import { createImageResizer, type ImageResizer, UnreadableImageError } from './resize-image.js';

const HOUR_MS = 3_600_000;

/** Photos by location (`photo-<id>`), counting how often each is fetched; a real resizer, counting its calls. */
async function setUp(options: { maxBytes?: number; bodies?: Record<string, ProductImage> } = {}) {
  let clock = 1_000_000;
  const fetches = new Map<string, number>();
  const resizes: string[] = [];
  const realResizer = createImageResizer();
  const resizer: ImageResizer = {
    resize(image, width, format, label) {
      resizes.push(`${format} ${width} ${label}`);
      return realResizer.resize(image, width, format, label);
    },
  };
  const photos = new Map<string, ProductImage>();
  for (const id of [1, 2, 14]) photos.set(`photo-${id}`, { body: await productPhoto(id), contentType: 'image/jpeg' });
  for (const [location, image] of Object.entries(options.bodies ?? {})) photos.set(location, image);
  const cache = createImageCache({
    maxBytes: options.maxBytes ?? 32 * 1024 * 1024,
    ttlMs: HOUR_MS,
    now: () => clock,
    resizer,
    fetchOriginal: (location) => {
      fetches.set(location, (fetches.get(location) ?? 0) + 1);
      const photo = photos.get(location);
      return photo === undefined ? Promise.reject(new Error(`no photo at ${location}`)) : Promise.resolve(photo);
    },
  });
  const advance = (ms: number) => (clock += ms);
  return { cache, fetches, resizes, advance };
}

describe('the image cache', () => {
  it('shares one fetch and one resize among concurrent requests for one variant, then answers from memory', async () => {
    const { cache, fetches, resizes, advance } = await setUp();
    const burst = await Promise.all(Array.from({ length: 8 }, () => cache.variant('photo-1', 320, 'avif')));
    const image = burst[0]!.image;
    expect(burst).toEqual(Array(8).fill({ image, cacheStatus: 'MISS', ageSeconds: 0 }));
    expect(burst.every((answer) => answer.image === image)).toBe(true);
    advance(5_400);
    expect(cache.cachedVariant('photo-1', 320, 'avif')).toEqual({ image, cacheStatus: 'HIT', ageSeconds: 5 });
    expect(await cache.variant('photo-1', 320, 'avif')).toEqual({ image, cacheStatus: 'HIT', ageSeconds: 5 });
    expect(fetches.get('photo-1')).toBe(1);
    expect(resizes).toEqual(['avif 320 photo-1']);
  });

  it('keeps one entry per width and format, made from one fetch of the original', async () => {
    const { cache, fetches, resizes } = await setUp();
    const variants = await Promise.all([
      cache.variant('photo-1', 320, 'avif'),
      cache.variant('photo-1', 320, 'webp'),
      cache.variant('photo-1', 320, 'source'),
      cache.variant('photo-1', 640, 'avif'),
    ]);
    const images = variants.map((variant) => variant.image);
    expect(images.map((image) => image.contentType)).toEqual(['image/avif', 'image/webp', 'image/jpeg', 'image/avif']);
    expect(new Set(images.map((image) => image.etag)).size).toBe(4);
    expect(images.every((image) => /^"[\w-]{27}"$/.test(image.etag))).toBe(true);
    expect(fetches.get('photo-1')).toBe(1);
    expect(resizes).toHaveLength(4);
    expect(cache.cachedVariant('photo-1', 480, 'avif')).toBeUndefined();
  });

  it('stores nothing when the original cannot be read: the next request tries again', async () => {
    const corrupt = { body: Buffer.from('<html>oops</html>'), contentType: 'image/jpeg' };
    const { cache, fetches } = await setUp({ bodies: { broken: corrupt } });
    await expect(cache.variant('broken', 320, 'webp')).rejects.toBeInstanceOf(UnreadableImageError);
    expect(cache.cachedVariant('broken', 320, 'webp')).toBeUndefined();
    await expect(cache.variant('broken', 320, 'webp')).rejects.toBeInstanceOf(UnreadableImageError);
    // Not even the original is kept: bytes that cannot be read are fetched again, in case the source mends them.
    expect(fetches.get('broken')).toBe(2);
  });

  it('stores nothing when the original cannot be fetched', async () => {
    const { cache, fetches } = await setUp();
    await expect(cache.variant('missing', 320, 'webp')).rejects.toThrow('no photo at missing');
    await expect(cache.original('missing')).rejects.toThrow('no photo at missing');
    expect(fetches.get('missing')).toBe(2);
  });

  it('keeps variants within the byte budget, least recently used first out', async () => {
    const { cache } = await setUp();
    const size = async (width: 160 | 240, format: 'avif' | 'webp') => (await cache.variant('photo-14', width, format)).image.body.length;
    const [avif160, webp160, avif240] = [await size(160, 'avif'), await size(160, 'webp'), await size(240, 'avif')];
    // One byte short of all three variants: the third in pushes out the least recently used. Photo 14's original
    // (15 KB) is bigger than that whole budget, so it is fetched for each fill and never kept.
    const { cache: small, fetches } = await setUp({ maxBytes: avif160 + webp160 + avif240 - 1 });
    await small.variant('photo-14', 160, 'avif');
    await small.variant('photo-14', 160, 'webp');
    small.cachedVariant('photo-14', 160, 'avif'); // now the most recently used
    await small.variant('photo-14', 240, 'avif');
    expect(small.cachedVariant('photo-14', 160, 'webp')).toBeUndefined();
    expect(small.cachedVariant('photo-14', 160, 'avif')).toBeDefined();
    expect(small.cachedVariant('photo-14', 240, 'avif')).toBeDefined();
    expect(fetches.get('photo-14')).toBe(3);
  });

  it('counts originals in the same budget', async () => {
    const { cache } = await setUp();
    const original = (await cache.original('photo-14')).image.body.length;
    const variant = (await cache.variant('photo-14', 160, 'avif')).image.body.length;
    // Room for the original, or for the variant, not for both: the variant's fill pushes the original out.
    const { cache: small, fetches } = await setUp({ maxBytes: original + variant - 1 });
    await small.variant('photo-14', 160, 'avif');
    await small.original('photo-14');
    expect(fetches.get('photo-14')).toBe(2);
  });

  it('serves an image bigger than the whole budget without keeping it', async () => {
    const { cache, fetches } = await setUp({ maxBytes: 1000 });
    const { image } = await cache.original('photo-1');
    expect(image.body.length).toBeGreaterThan(1000);
    await cache.original('photo-1');
    expect(fetches.get('photo-1')).toBe(2);
  });

  it('passes an SVG through as its own variant', async () => {
    const svg = { body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), contentType: 'image/svg+xml' };
    const { cache, resizes } = await setUp({ bodies: { 'logo.svg': svg } });
    const { image } = await cache.variant('logo.svg', 320, 'avif');
    expect(image).toBe((await cache.original('logo.svg')).image);
    expect(image.body.equals(svg.body)).toBe(true);
    expect(resizes).toEqual(['avif 320 logo.svg']);
  });
});
