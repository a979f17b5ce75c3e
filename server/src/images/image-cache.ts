import { createHash } from 'node:crypto';
import type { ImageWidth } from '@catalogue/shared/image-widths';
import { LRUCache } from 'lru-cache';
import type { ProductImage } from '../catalogue/product-source.js';
import type { ImageResizer } from './resize-image.js';
import type { VariantFormat } from './variant-format.js';

/** Image bytes as the cache keeps them: with a strong validator, computed once when stored. */
export interface CachedImage extends ProductImage {
  /** Quoted (`"…"`), over the bytes, so each format and width has its own. */
  etag: string;
  /** When the bytes were fetched or made, in milliseconds since the epoch. */
  storedAt: number;
}

/** An image as one request gets it: whether it was in the cache already, and how long it has been there. */
export interface ImageAnswer {
  image: CachedImage;
  cacheStatus: 'HIT' | 'MISS';
  /** Whole seconds since it was stored. */
  ageSeconds: number;
}

export interface ImageCacheOptions {
  /** IMAGE_CACHE_MAX_BYTES: the budget of originals and variants together. */
  maxBytes: number;
  /** How long an entry is kept before the source is asked again. */
  ttlMs: number;
  /** Fetches the bytes at a location a source gave for a product's image. */
  fetchOriginal: (location: string) => Promise<ProductImage>;
  resizer: ImageResizer;
  /** Milliseconds since the epoch, for ages; tests inject their own clock. Default: Date.now. */
  now?: () => number;
}

/**
 * Product images by source location, originals and resized variants in one least-recently-used cache bounded by
 * bytes. Concurrent requests for one entry share one fetch or one resize; a failure is never stored.
 */
export interface ImageCache {
  original(location: string): Promise<ImageAnswer>;
  /** Resizes the original (fetched or cached) on a miss; see ImageResizer for what `format` means. */
  variant(location: string, width: ImageWidth, format: VariantFormat): Promise<ImageAnswer>;
  /** The variant if it is held now, else `undefined`; never fetches nor resizes (for answering hits synchronously). */
  cachedVariant(location: string, width: ImageWidth, format: VariantFormat): ImageAnswer | undefined;
  clear(): void;
}

/** What a fill needs besides its key. */
interface Fill {
  location: string;
  variant?: { width: ImageWidth; format: VariantFormat };
}

export function createImageCache({ maxBytes, ttlMs, fetchOriginal, resizer, now = Date.now }: ImageCacheOptions): ImageCache {
  // Sized by bytes, not by count: one large photo must not push the budget past what the operator allowed. An
  // image bigger than the whole budget is served but not kept.
  const entries = new LRUCache<string, CachedImage, Fill>({
    maxSize: maxBytes,
    sizeCalculation: (image) => Math.max(1, image.body.length),
    ttl: ttlMs,
    fetchMethod: async (_key, _stale, { context }) => {
      const { location, variant } = context;
      if (variant === undefined) return stored(await fetchOriginal(location));
      const { image: original } = await fetch(originalKey(location), { location });
      const resized = await resizer.resize(original, variant.width, variant.format, location).catch((error: unknown) => {
        // Bytes that cannot be read are not kept as the original either: the next request fetches them again.
        entries.delete(originalKey(location));
        throw error;
      });
      // An SVG comes back as it went in: no need to hash it again.
      return resized === original ? original : stored(resized);
    },
  });

  function stored(image: ProductImage): CachedImage {
    return { ...image, etag: `"${createHash('sha1').update(image.body).digest('base64url')}"`, storedAt: now() };
  }

  function answer(image: CachedImage, cacheStatus: ImageAnswer['cacheStatus']): ImageAnswer {
    return { image, cacheStatus, ageSeconds: Math.max(0, Math.floor((now() - image.storedAt) / 1000)) };
  }

  async function fetch(key: string, fill: Fill): Promise<ImageAnswer> {
    const status: LRUCache.Status<string, CachedImage, Fill> = {};
    const image = await entries.fetch(key, { context: fill, status });
    // Only a fetchMethod that resolves undefined yields undefined, and this one never does.
    if (image === undefined) throw new Error(`the image cache resolved nothing for ${key}`);
    return answer(image, status.fetch === 'hit' ? 'HIT' : 'MISS');
  }

  return {
    original: (location) => fetch(originalKey(location), { location }),
    variant: (location, width, format) => fetch(variantKey(location, width, format), { location, variant: { width, format } }),
    cachedVariant(location, width, format) {
      const image = entries.get(variantKey(location, width, format));
      return image && answer(image, 'HIT');
    },
    clear: () => entries.clear(),
  };
}

// The first word says what an entry is, and the location comes last, so no two keys collide whatever a location holds.
function originalKey(location: string): string {
  return `original ${location}`;
}

function variantKey(location: string, width: ImageWidth, format: VariantFormat): string {
  return `${format} ${width} ${location}`;
}
