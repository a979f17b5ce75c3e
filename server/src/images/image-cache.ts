import { createHash } from 'node:crypto';
import type { ImageWidth } from '@catalogue/shared/image-widths';
import { LRUCache } from 'lru-cache';
import { IMAGE_NOT_MODIFIED, type ProductImage } from '../catalogue/sources/product-source.js';
import type { UpstreamValidators } from '../catalogue/upstream/upstream-validators.js';
import type { CacheStatus } from '../outcomes/cache-status.js';
import { FreshnessRule, type Lookup } from '../catalogue/caches/freshness.js';
import type { Logger } from '../logger.js';
import type { ImageResizer } from './resize-image.js';
import type { VariantFormat } from './variant-format.js';

/** Image bytes as the cache keeps them, originals and variants alike. */
export interface CachedImage {
  body: Buffer;
  contentType: string;
  /** Quoted (`"…"`), over the bytes, so each format and width has its own. */
  etag: string;
  /** The ETag of the original these bytes were made from (an original's own ETag for an original). */
  madeFrom: string;
}

/**
 * An image as one request gets it, found as the catalogue's JSON is (catalogue/caches/freshness.ts): its age and
 * freshness are the original's, since the source last gave or confirmed it.
 */
export interface ImageEntry extends Lookup {
  image: CachedImage;
}

export interface ImageCacheOptions {
  /** IMAGE_CACHE_MAX_BYTES: the budget of originals and variants together. */
  maxBytes: number;
  /** CACHE_TTL_SECONDS, in milliseconds: how long an original is taken as current without asking the source. */
  ttlMs: number;
  /** STALE_MAX_SECONDS, in milliseconds: how long past that it is still served while the source is asked or fails. */
  staleMaxMs: number;
  /** Fetches the bytes at a location a source gave for a product's image; conditionally, with validators. */
  fetchOriginal: (location: string, validators?: UpstreamValidators) => Promise<ProductImage | typeof IMAGE_NOT_MODIFIED>;
  resizer: ImageResizer;
  logger: Logger;
  /** Called once per variant actually encoded (never for a variant kept across a revalidation); for /metrics. */
  onEncode?: (format: VariantFormat) => void;
  /** Milliseconds since the epoch; tests inject their own clock. Default: Date.now. */
  now?: () => number;
}

/**
 * Product photos by source location, by the catalogue's one freshness rule (catalogue/caches/freshness.ts), over
 * when the source last gave or confirmed an original: everything made from it is as fresh as it is, and one
 * background revalidation at a time asks the source about a STALE one.
 *
 * A revalidation is a conditional request (the source's `ETag`/`Last-Modified`), or, from a source that gives
 * neither, a download whose bytes are compared by hash: a variant is made again only when its original
 * changed. What each original is (its hash, validators, when it was last confirmed) is held apart from the bytes,
 * so an outage is ridden out even after the byte budget pushed an original's own bytes out.
 */
export interface ImageCache {
  original(location: string): Promise<ImageEntry>;
  /** Resizes the original (fetched or cached) when no variant of the current original is held. */
  variant(location: string, width: ImageWidth, format: VariantFormat): Promise<ImageEntry>;
  /** Resolves once every source request and resize started so far has settled (tests, shutdown). */
  settled(): Promise<void>;
  clear(): void;
}

/** What is known of one original, kept apart from its bytes: small, so thousands fit in a few hundred kilobytes. */
interface OriginalRecord {
  /** The ETag of its bytes (what variants name as `madeFrom`). */
  etag: string;
  validators: UpstreamValidators | undefined;
  /** When the source last gave or confirmed these bytes. */
  checkedAt: number;
}

/** A record as a fill left it, with the bytes when the fill downloaded them (they may be too big to keep). */
interface Checked {
  record: OriginalRecord;
  image?: CachedImage;
}

/** Records of originals: far more than any byte budget holds, yet bounded whatever the upstream names. */
const MAX_RECORDS = 50_000;

export function createImageCache(options: ImageCacheOptions): ImageCache {
  const { maxBytes, ttlMs, staleMaxMs, fetchOriginal, resizer, logger, onEncode, now = Date.now } = options;
  const rule = new FreshnessRule({ ttlMs, staleMaxMs, now });
  const records = new LRUCache<string, OriginalRecord>({ max: MAX_RECORDS });
  // Sized by bytes, not by count: one large photo must not push the budget past what the operator allowed. An
  // image bigger than the whole budget is served but not kept.
  const bytes = new LRUCache<string, CachedImage>({ maxSize: maxBytes, sizeCalculation: (image) => Math.max(1, image.body.length) });
  // Concurrent requests share one source request per location (conditional or not) and one resize per variant.
  const checks = new Map<string, Promise<Checked>>();
  const downloads = new Map<string, Promise<Checked>>();
  const resizes = new Map<string, Promise<CachedImage>>();

  function shared<T>(pending: Map<string, Promise<T>>, key: string, start: () => Promise<T>): Promise<T> {
    let promise = pending.get(key);
    if (promise === undefined) {
      promise = start().finally(() => pending.delete(key));
      pending.set(key, promise);
    }
    return promise;
  }

  /** Asks the source (conditionally when it gave validators before) and records what it says. */
  async function fetchAndRecord(location: string, conditional: boolean): Promise<Checked> {
    const held = records.get(location);
    const validators = conditional ? held?.validators : undefined;
    const fetched = await fetchOriginal(location, validators);
    if (fetched === IMAGE_NOT_MODIFIED) {
      if (held === undefined || validators === undefined) throw new Error(`the source answered "not modified" for ${location} unasked`);
      const record = { ...held, checkedAt: now() };
      records.set(location, record);
      return { record };
    }
    const etag = etagOf(fetched.body);
    const record = { etag, validators: fetched.validators, checkedAt: now() };
    records.set(location, record);
    const image = { body: fetched.body, contentType: fetched.contentType, etag, madeFrom: etag };
    bytes.set(originalKey(location), image);
    return { record, image };
  }

  const check = (location: string) => shared(checks, location, () => fetchAndRecord(location, true));
  const download = (location: string) => shared(downloads, location, () => fetchAndRecord(location, false));

  /** The original's record as the freshness rules give it, with the bytes if getting it downloaded them. */
  async function current(location: string): Promise<Checked & { cacheStatus: CacheStatus }> {
    const record = records.get(location);
    const cacheStatus = rule.statusOf(record?.checkedAt);
    if (record !== undefined && cacheStatus === 'HIT') return { record, cacheStatus };
    if (record !== undefined && cacheStatus === 'STALE') {
      if (!checks.has(location)) {
        check(location).catch((error: unknown) => {
          logger.warn({ err: error, location }, 'Background revalidation of an image failed; the cached copy is still served');
        });
      }
      return { record, cacheStatus };
    }
    return { ...(await check(location)), cacheStatus: 'MISS' };
  }

  /** The original's bytes as `record` names them: held, just downloaded, or downloaded now. */
  async function originalBytes(location: string, { record, image }: Checked): Promise<CachedImage> {
    if (image !== undefined && image.etag === record.etag) return image;
    const held = bytes.get(originalKey(location));
    if (held !== undefined && held.etag === record.etag) return held;
    const downloaded = await download(location);
    return downloaded.image ?? (await originalBytes(location, downloaded));
  }

  async function makeVariant(location: string, checked: Checked, width: ImageWidth, format: VariantFormat): Promise<CachedImage> {
    const original = await originalBytes(location, checked);
    const resized = await resizer.resize(original, width, format, location).catch((error: unknown) => {
      // Bytes that cannot be read are not kept as the original either: the next request fetches them again.
      bytes.delete(originalKey(location));
      records.delete(location);
      throw error;
    });
    // An SVG comes back as it went in: no encode, no new hash, and the variant is the original itself.
    const variant =
      resized === original
        ? original
        : { body: resized.body, contentType: resized.contentType, etag: etagOf(resized.body), madeFrom: original.etag };
    if (variant !== original) onEncode?.(format);
    bytes.set(variantKey(location, width, format), variant);
    return variant;
  }

  /** The image as a lookup found it, as fresh as the original it was made from (a MISS: just made, age 0). */
  function entryOf(image: CachedImage, cacheStatus: CacheStatus, { checkedAt }: OriginalRecord): ImageEntry {
    return { image, ...rule.lookup(checkedAt, cacheStatus, cacheStatus === 'MISS' ? checkedAt : now()) };
  }

  return {
    async original(location) {
      const checked = await current(location);
      const held = bytes.get(originalKey(location));
      if (held !== undefined && held.etag === checked.record.etag) return entryOf(held, checked.cacheStatus, checked.record);
      const image = await originalBytes(location, checked);
      return entryOf(image, 'MISS', checked.record);
    },

    async variant(location, width, format) {
      const checked = await current(location);
      const key = variantKey(location, width, format);
      const held = bytes.get(key);
      if (held !== undefined && held.madeFrom === checked.record.etag) return entryOf(held, checked.cacheStatus, checked.record);
      const image = await shared(resizes, `${key} ${checked.record.etag}`, () => makeVariant(location, checked, width, format));
      return entryOf(image, 'MISS', checked.record);
    },

    async settled() {
      await Promise.allSettled([...checks.values(), ...downloads.values(), ...resizes.values()]);
    },

    clear() {
      records.clear();
      bytes.clear();
    },
  };
}

function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

// The first word says what an entry is, and the location comes last, so no two keys collide whatever a location holds.
function originalKey(location: string): string {
  return `original ${location}`;
}

function variantKey(location: string, width: ImageWidth, format: VariantFormat): string {
  return `${format} ${width} ${location}`;
}
