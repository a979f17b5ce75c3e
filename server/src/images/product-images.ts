import type { ImageWidth } from '@catalogue/shared/image-widths';
import { Counter } from 'prom-client';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import type { ProductSource } from '../catalogue/sources/product-source.js';
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
  /**
   * That image resized: made once per original, width and format, and kept while the original stays the same. Fresh
   * while both the original and the product that names its location are: past either, the location may change.
   */
  variant(id: number, width: ImageWidth, format: VariantFormat): Promise<ImageEntry>;
  /** Resolves once every source request and resize started so far has settled (tests, shutdown). */
  settled(): Promise<void>;
  close(): void;
}

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

  return {
    original: async (id) => cache.original((await catalogue.getProduct(id)).value.image),
    async variant(id, width, format) {
      const product = await catalogue.getProduct(id);
      const variant = await cache.variant(product.value.image, width, format);
      return { ...variant, freshUntil: Math.min(variant.freshUntil, product.freshUntil) };
    },
    settled: () => cache.settled(),
    close() {
      cache.clear();
    },
  };
}
