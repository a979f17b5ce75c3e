import type { ImageWidth } from '@catalogue/shared/image-widths';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import type { ProductSource } from '../catalogue/product-source.js';
import type { Config } from '../config.js';
import type { Metrics } from '../http/metrics.js';
import type { Logger } from '../logger.js';
import { createImageCache, type ImageEntry } from './image-cache.js';
import { createImageResizer } from './resize-image.js';
import type { VariantFormat } from './variant-format.js';

export interface ProductImagesOptions {
  /** Where each product's image location comes from: the product as the catalogue holds it. */
  catalogue: Pick<CachedCatalogue, 'getProduct'>;
  /** The catalogue's own source, asked for image bytes at the locations its products name. */
  source: Pick<ProductSource, 'getImage'>;
  config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds' | 'imageCacheMaxBytes'>;
  logger: Logger;
  /** `image_variant_encodes_total` is registered here. */
  metrics: Pick<Metrics, 'registry'>;
  /** Milliseconds since the epoch; tests inject their own clock. */
  now?: () => number;
}

/** Product photos by product id: the slice's cache over the catalogue's products and source. */
export interface ProductImages {
  /** The image at the location the source gave for this product; never a location from anywhere else. */
  original(id: number): Promise<ImageEntry>;
  /** That image resized: made once per original, width and format, and kept while the original stays the same. */
  variant(id: number, width: ImageWidth, format: VariantFormat): Promise<ImageEntry>;
  /**
   * The variant if the product's photo location, learnt from the catalogue, and the variant are both fresh now, else
   * `undefined`; never asks the catalogue or the source, nor resizes.
   */
  peekVariant(id: number, width: ImageWidth, format: VariantFormat): ImageEntry | undefined;
  /** Resolves once every source request and resize started so far has settled (tests, shutdown). */
  settled(): Promise<void>;
  close(): void;
}

/** Products whose photo location is kept: bounded whatever ids are asked for, a few megabytes at most. */
const MAX_LOCATIONS = 50_000;

export function createProductImages({ catalogue, source, config, logger, metrics, now }: ProductImagesOptions): ProductImages {
  const encodes = new Counter({
    name: 'image_variant_encodes_total',
    help: 'Photo variants encoded, by format; an unchanged original keeps its variants, so this stays flat between upstream changes',
    labelNames: ['format'],
    registers: [metrics.registry],
  });
  const clock = now ?? Date.now;
  // Originals and their variants by source location, so a product whose image changes upstream gets the new one.
  const cache = createImageCache({
    maxBytes: config.imageCacheMaxBytes,
    ttlMs: config.cacheTtlSeconds * 1000,
    staleMaxMs: config.staleMaxSeconds * 1000,
    fetchOriginal: (location, validators) => source.getImage(location, validators),
    resizer: createImageResizer(),
    logger,
    onEncode: (format) => encodes.inc({ format }),
    now: clock,
  });

  // Each product's photo location as the catalogue last gave it, until the product entry it came from is no longer
  // fresh: the look without waiting (peekVariant) needs no catalogue, so a photo asks the catalogue once, on
  // Express's path, and a photo the response cache answers not at all. Past that freshness, the catalogue is asked
  // again (its refill may name another location).
  const locations = new LRUCache<number, { location: string; freshUntil: number }>({ max: MAX_LOCATIONS });

  async function locationOf(id: number): Promise<string> {
    const { value, freshForSeconds } = await catalogue.getProduct(id);
    locations.set(id, { location: value.image, freshUntil: clock() + freshForSeconds * 1000 });
    return value.image;
  }

  return {
    original: async (id) => cache.original(await locationOf(id)),
    variant: async (id, width, format) => cache.variant(await locationOf(id), width, format),
    peekVariant(id, width, format) {
      const known = locations.get(id);
      if (known === undefined || clock() >= known.freshUntil) return undefined;
      return cache.peekVariant(known.location, width, format);
    },
    settled: () => cache.settled(),
    close() {
      locations.clear();
      cache.clear();
    },
  };
}
