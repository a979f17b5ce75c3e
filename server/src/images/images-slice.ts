import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import type { ProductSource } from '../catalogue/sources/product-source.js';
import type { Config } from '../config.js';
import type { CachedRouteMount } from '../http/cached-route.js';
import type { Metrics } from '../http/metrics.js';
import type { Slice } from '../http/slice.js';
import type { Logger } from '../logger.js';
import { IMAGE_ROUTE } from './image-route.js';
import { createProductImages } from './product-images.js';

export interface ImagesSliceOptions {
  catalogue: CachedCatalogue;
  source: ProductSource;
  config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds' | 'imageCacheMaxBytes'>;
  mountCached: CachedRouteMount;
  logger: Logger;
  metrics: Pick<Metrics, 'registry'>;
  now: () => number;
}

/**
 * The photo slice: `/api/products/{id}/image` (image-route.ts), `?w=` for a resized variant, answered from the
 * product's photo as the catalogue's source gives it (product-images.ts).
 */
export function createImagesSlice({ catalogue, source, config, mountCached, logger, metrics, now }: ImagesSliceOptions): Slice {
  const images = createProductImages({ catalogue, source, config, logger, metrics, now });
  const router = Router();
  mountCached(router, [IMAGE_ROUTE], images);
  return { mount: 'api', router, close: () => images.close() };
}
