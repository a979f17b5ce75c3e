import { MESSAGES } from '@catalogue/shared/messages';
import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { answerFailures } from '../http/failure-answers.js';
import type { Failure } from '../outcomes/failure.js';
import type { ProductSource } from '../catalogue/product-source.js';
import type { Config } from '../config.js';
import type { HttpCachingPolicy } from '../http/answer.js';
import { cachedApiRoute, mountCachedRoutes } from '../http/api-route.js';
import type { Metrics } from '../http/metrics.js';
import type { Slice } from '../http/slice.js';
import type { Logger } from '../logger.js';
import { imageAnswer } from './image-answer.js';
import { IMAGE_ROUTE } from './image-route.js';
import { createProductImages } from './product-images.js';
import { chooseVariantFormat } from './variant-format.js';

export interface ImagesSliceOptions {
  catalogue: CachedCatalogue;
  source: ProductSource;
  config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds' | 'imageCacheMaxBytes'>;
  caching: HttpCachingPolicy;
  logger: Logger;
  metrics: Pick<Metrics, 'registry'>;
  now: () => number;
}

/** No such product, or its photo or the catalogue could not be had (docs/api.md, "Product images"). */
const PHOTO_FAILURES: Record<Failure, string> = {
  'not-found': MESSAGES.productNotFound,
  unavailable: MESSAGES.catalogueUnavailable,
  'timed-out': MESSAGES.catalogueTimeout,
};

/**
 * The photo slice: `/api/products/{id}/image` (image-route.ts), `?w=` for a resized variant. Originals and
 * variants are answered by one rule (prepareAnswer): one ETag mechanism, X-Cache and Age on both. A fresh
 * variant is answered by the response cache in front of Express; everything else by the Express route.
 */
export function createImagesSlice({ catalogue, source, config, caching, logger, metrics, now }: ImagesSliceOptions): Slice {
  const images = createProductImages({ catalogue, source, config, logger, metrics, now });
  const router = Router();
  const cacheableRoutes = mountCachedRoutes(
    router,
    [
      cachedApiRoute(IMAGE_ROUTE, {
        get: async ({ id, width }, req) =>
          width === null
            ? imageAnswer(await images.original(id), { variesOnAccept: false })
            : imageAnswer(await images.variant(id, width, chooseVariantFormat(req.headers.accept)), { variesOnAccept: true }),
        peek: ({ id, width }, req) => {
          // Variants only: the image cache can look at a variant without waiting (peekVariant); an original is Express's.
          const variant = width === null ? undefined : images.peekVariant(id, width, chooseVariantFormat(req.headers.accept));
          return variant && imageAnswer(variant, { variesOnAccept: true });
        },
        failures: answerFailures(PHOTO_FAILURES, logger),
      }),
    ],
    caching,
  );
  return {
    mount: 'api',
    router,
    cacheableRoutes,
    close: () => images.close(),
  };
}
