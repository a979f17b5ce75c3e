import { TINY_PNG } from '@catalogue/testing/fake-store-routes';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../catalogue/cached-catalogue.js';
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
  return { images, asked, product, advanceSeconds: (seconds: number) => void (time += seconds * 1000) };
}

describe('a product photo', () => {
  it('asks the catalogue once when it is not held, and not at all when it is looked at without waiting', async () => {
    const { images, asked } = setUp();
    expect(images.peekVariant(1, 480, 'webp')).toBeUndefined();
    expect(asked.catalogue).toBe(0);
    const made = await images.variant(1, 480, 'webp');
    expect([made.cacheStatus, asked.catalogue, asked.source]).toEqual(['MISS', 1, ['photo-a']]);
    expect(images.peekVariant(1, 480, 'webp')?.image).toBe(made.image);
    expect(asked.catalogue).toBe(1);
    images.close();
  });

  it('asks the catalogue again once the product it learnt the location from is no longer fresh, and follows a new location', async () => {
    const { images, asked, product, advanceSeconds } = setUp();
    await images.variant(1, 480, 'webp');
    advanceSeconds(FRESH_SECONDS);
    expect(images.peekVariant(1, 480, 'webp')).toBeUndefined();
    product.image = 'photo-b';
    await images.variant(1, 480, 'webp');
    expect([asked.catalogue, asked.source]).toEqual([2, ['photo-a', 'photo-b']]);
    expect(images.peekVariant(1, 480, 'webp')).toBeDefined();
    images.close();
  });
});
