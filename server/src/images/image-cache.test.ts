import { productPhoto } from '@catalogue/testing/photos';
import { describe, expect, it } from 'vitest';
import { IMAGE_NOT_MODIFIED, type ProductImage } from '../catalogue/sources/product-source.js';
import type { UpstreamValidators } from '../catalogue/upstream/upstream-validators.js';
import { createCapturingLogger } from '../testing/capturing-logger.js';
import { createImageCache } from './image-cache.js';
import { createImageResizer, type ImageResizer, UnreadableImageError } from './resize-image.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Photos by location (`photo-<id>`), counting how often each is fetched; a real resizer, counting its calls. A
 * photo given with validators answers a conditional request that names them with "not modified", as an HTTP
 * upstream does; `failing` makes every fetch fail, as an upstream in an outage.
 */
async function setUp(options: { maxBytes?: number; bodies?: Record<string, ProductImage> } = {}) {
  let clock = 1_000_000;
  let failing = false;
  const fetches = new Map<string, number>();
  const conditionalFetches: string[] = [];
  const encodes: string[] = [];
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
  const { logger, records: logs } = createCapturingLogger('warn');
  const cache = createImageCache({
    maxBytes: options.maxBytes ?? 32 * 1024 * 1024,
    ttlMs: HOUR_MS,
    staleMaxMs: DAY_MS,
    now: () => clock,
    resizer,
    logger,
    onEncode: (format) => encodes.push(format),
    fetchOriginal: (location, validators?: UpstreamValidators) => {
      fetches.set(location, (fetches.get(location) ?? 0) + 1);
      if (validators !== undefined) conditionalFetches.push(location);
      if (failing) return Promise.reject(new Error(`the upstream is down (${location})`));
      const photo = photos.get(location);
      if (photo === undefined) return Promise.reject(new Error(`no photo at ${location}`));
      const unchanged = validators?.etag !== undefined && validators.etag === photo.validators?.etag;
      return Promise.resolve(unchanged ? IMAGE_NOT_MODIFIED : photo);
    },
  });
  const advance = (ms: number) => (clock += ms);
  const setFailing = (value: boolean) => (failing = value);
  return { cache, fetches, conditionalFetches, encodes, resizes, advance, photos, setFailing, logs };
}

describe('the image cache', () => {
  it('shares one fetch and one resize among concurrent requests for one variant, then answers from memory', async () => {
    const { cache, fetches, resizes, advance } = await setUp();
    const burst = await Promise.all(Array.from({ length: 8 }, () => cache.variant('photo-1', 320, 'avif')));
    const image = burst[0]!.image;
    for (const answer of burst) expect(answer).toMatchObject({ image, cacheStatus: 'MISS', ageSeconds: 0 });
    // Fresh for the TTL from when the source gave the original, which the variants share.
    expect(burst[0]!.freshUntil - burst[0]!.storedAt).toBe(HOUR_MS);
    expect(burst.every((answer) => answer.image === image)).toBe(true);
    advance(5_400);
    expect(await cache.variant('photo-1', 320, 'avif')).toMatchObject({ image, cacheStatus: 'HIT', ageSeconds: 5 });
    expect(fetches.get('photo-1')).toBe(1);
    expect(resizes).toEqual(['avif 320 photo-1']);
  });

  it('keeps one entry per width and format, made from one fetch of the original', async () => {
    const { cache, fetches, resizes } = await setUp();
    const variants = await Promise.all([
      cache.variant('photo-1', 320, 'avif'),
      cache.variant('photo-1', 320, 'webp'),
      cache.variant('photo-1', 320, 'original'),
      cache.variant('photo-1', 640, 'avif'),
    ]);
    const images = variants.map((variant) => variant.image);
    expect(images.map((image) => image.contentType)).toEqual(['image/avif', 'image/webp', 'image/jpeg', 'image/avif']);
    expect(new Set(images.map((image) => image.etag)).size).toBe(4);
    expect(images.every((image) => /^"[\w-]{27}"$/.test(image.etag))).toBe(true);
    expect(fetches.get('photo-1')).toBe(1);
    expect(resizes).toHaveLength(4);
  });

  it('stores nothing when the original cannot be read: the next request tries again', async () => {
    const corrupt = { body: Buffer.from('<html>oops</html>'), contentType: 'image/jpeg' };
    const { cache, fetches } = await setUp({ bodies: { broken: corrupt } });
    await expect(cache.variant('broken', 320, 'webp')).rejects.toBeInstanceOf(UnreadableImageError);
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
    const { cache: small, fetches, resizes } = await setUp({ maxBytes: avif160 + webp160 + avif240 - 1 });
    await small.variant('photo-14', 160, 'avif');
    await small.variant('photo-14', 160, 'webp');
    await small.variant('photo-14', 160, 'avif'); // now the most recently used
    await small.variant('photo-14', 240, 'avif');
    expect(fetches.get('photo-14')).toBe(3);
    // The two kept are answered from memory; the one pushed out is made again.
    await small.variant('photo-14', 160, 'avif');
    await small.variant('photo-14', 240, 'avif');
    expect(resizes).toHaveLength(3);
    await small.variant('photo-14', 160, 'webp');
    expect(resizes).toHaveLength(4);
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

describe('the image cache’s freshness (the catalogue’s rules)', () => {
  /** Photo 1 as an HTTP upstream serves it, with an ETag it answers conditional requests by. */
  async function withValidators() {
    const body = await productPhoto(1);
    return setUp({ bodies: { tagged: { body, contentType: 'image/jpeg', validators: { etag: '"v1"' } } } });
  }

  it('serves a variant past the TTL at once as STALE while one background revalidation runs, then as a HIT', async () => {
    const { cache, fetches, conditionalFetches, encodes, advance } = await withValidators();
    const made = await cache.variant('tagged', 320, 'avif');
    advance(HOUR_MS + 1_000);
    const stale = await Promise.all(Array.from({ length: 5 }, () => cache.variant('tagged', 320, 'avif')));
    expect(stale.map((answer) => [answer.cacheStatus, answer.ageSeconds])).toEqual(Array(5).fill(['STALE', 3601]));
    expect(stale.every((answer) => answer.image === made.image)).toBe(true);
    await cache.settled();
    expect(conditionalFetches).toEqual(['tagged']);
    expect(fetches.get('tagged')).toBe(2);
    // Revalidated: fresh again, the same bytes and ETag, and the variant was not encoded again.
    expect(await cache.variant('tagged', 320, 'avif')).toMatchObject({ image: made.image, cacheStatus: 'HIT', ageSeconds: 0 });
    expect(encodes).toEqual(['avif']);
  });

  it('makes no variant twice across ten TTLs of an unchanged original, with validators or by hash', async () => {
    const { cache, encodes, fetches, advance } = await withValidators();
    for (const location of ['tagged', 'photo-2']) {
      for (const format of ['avif', 'webp', 'original'] as const) await cache.variant(location, 480, format);
    }
    for (let ttl = 0; ttl < 10; ttl += 1) {
      advance(HOUR_MS);
      for (const location of ['tagged', 'photo-2']) {
        for (const format of ['avif', 'webp', 'original'] as const) await cache.variant(location, 480, format);
      }
      await cache.settled();
    }
    expect(encodes).toHaveLength(6);
    // One fill, then one revalidation per TTL for each original, whatever the number of variants.
    expect([fetches.get('tagged'), fetches.get('photo-2')]).toEqual([11, 11]);
  });

  it('makes a variant again once its original changed, and serves the new one', async () => {
    const { cache, encodes, photos, advance } = await withValidators();
    const before = await cache.variant('tagged', 320, 'webp');
    photos.set('tagged', { body: await productPhoto(3), contentType: 'image/jpeg', validators: { etag: '"v2"' } });
    advance(HOUR_MS);
    expect((await cache.variant('tagged', 320, 'webp')).image).toBe(before.image); // stale while revalidating
    await cache.settled();
    const after = await cache.variant('tagged', 320, 'webp');
    expect(after.cacheStatus).toBe('MISS');
    expect(after.image.etag).not.toBe(before.image.etag);
    expect(after.image.madeFrom).not.toBe(before.image.madeFrom);
    expect(encodes).toEqual(['webp', 'webp']);
    expect((await cache.variant('tagged', 320, 'webp')).image).toBe(after.image);
  });

  it('goes on serving variants and originals through source failures up to the stale maximum, then fails', async () => {
    const { cache, advance, setFailing, logs } = await withValidators();
    const variant = await cache.variant('tagged', 640, 'avif');
    const original = await cache.original('tagged');
    setFailing(true);
    advance(HOUR_MS);
    for (let hour = 1; hour < 24; hour += 1) {
      expect((await cache.variant('tagged', 640, 'avif')).image).toBe(variant.image);
      expect((await cache.original('tagged')).image).toBe(original.image);
      await cache.settled();
      advance(HOUR_MS);
    }
    expect(logs.some((record) => record.msg.includes('the cached copy is still served'))).toBe(true);
    // Past TTL + stale maximum: nothing is served that old; the request waits for the source, which fails.
    advance(HOUR_MS);
    await expect(cache.variant('tagged', 640, 'avif')).rejects.toThrow('the upstream is down');
    setFailing(false);
    const back = await cache.variant('tagged', 640, 'avif');
    // The source confirmed the same original: the variant kept all along is served, not made again.
    expect(back).toMatchObject({ image: variant.image, cacheStatus: 'MISS', ageSeconds: 0 });
  });

  it('rides out an outage even when the byte budget has pushed the original’s own bytes out', async () => {
    const { cache: measure } = await setUp();
    const variantSize = (await measure.variant('photo-2', 160, 'avif')).image.body.length;
    // Room for the variant only: the original (tens of kilobytes) is never kept.
    const { cache, advance, setFailing } = await setUp({ maxBytes: variantSize });
    const variant = await cache.variant('photo-2', 160, 'avif');
    setFailing(true);
    advance(2 * HOUR_MS);
    expect((await cache.variant('photo-2', 160, 'avif')).image).toBe(variant.image);
    await cache.settled();
    // The revalidation failed: the variant is still not fresh, so served STALE, never as a HIT.
    expect((await cache.variant('photo-2', 160, 'avif')).cacheStatus).toBe('STALE');
  });
});
