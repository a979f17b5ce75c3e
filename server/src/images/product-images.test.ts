import { TINY_PNG } from '@catalogue/testing/fake-store-routes';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../catalogue/caches/cached-catalogue.js';
import { FIXTURE_PRODUCTS } from '@catalogue/testing/fixture-products';
import { createCapturingLogger } from '../testing/capturing-logger.js';
import { createProductImages } from './product-images.js';

const FRESH_SECONDS = 60;

/**
 * Product 1 as a catalogue holds it, fresh for a minute from each ask, its photo at `location`; the catalogue's
 * source, whose every location holds TINY_PNG. Counts what each is asked.
 */
function setUp() {
  let time = 1_000_000;
  const asked = { catalogue: 0, source: [] as string[] };
  const product = { ...FIXTURE_PRODUCTS[0]!, image: 'photo-a' };
  const images = createProductImages({
    catalogue: {
      getProduct: (id) => {
        asked.catalogue += 1;
        const entry: CacheEntry<typeof product> = {
          value: { ...product, id },
          body: { identity: Buffer.from('{}'), etag: '"p"' },
          cacheStatus: 'HIT',
          ageSeconds: 0,
          freshForSeconds: FRESH_SECONDS,
          storedAt: time,
          freshUntil: time + FRESH_SECONDS * 1000,
        };
        return Promise.resolve(entry);
      },
    },
    source: {
      getImage: (location) => {
        asked.source.push(location);
        return Promise.resolve({ body: TINY_PNG, contentType: 'image/png' });
      },
    },
    config: { cacheTtlSeconds: FRESH_SECONDS * 10, staleMaxSeconds: 600, imageCacheMaxBytes: 10_000_000 },
    logger: createCapturingLogger().logger,
    metrics: { registry: new Registry() },
    now: () => time,
  });
  return { images, asked, product, now: () => time, advanceSeconds: (seconds: number) => void (time += seconds * 1000) };
}

describe('a product photo', () => {
  it('is fresh while both the original and the product that names its location are', async () => {
    const { images, asked, now } = setUp();
    const made = await images.variant(1, 480, 'webp');
    expect([made.cacheStatus, asked.catalogue, asked.source]).toEqual(['MISS', 1, ['photo-a']]);
    // The product is fresh for a minute, the original for ten: the variant for the shorter.
    expect([made.storedAt, made.freshUntil]).toEqual([now(), now() + FRESH_SECONDS * 1000]);
    images.close();
  });

  it('follows a new location once the catalogue names one', async () => {
    const { images, asked, product, advanceSeconds } = setUp();
    await images.variant(1, 480, 'webp');
    advanceSeconds(FRESH_SECONDS);
    product.image = 'photo-b';
    await images.variant(1, 480, 'webp');
    expect([asked.catalogue, asked.source]).toEqual([2, ['photo-a', 'photo-b']]);
    images.close();
  });
});
