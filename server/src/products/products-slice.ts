import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/caches/derived-body-cache.js';
import { type CachedRouteMount, mountApiRoute } from '../http/cached-route.js';
import type { Slice } from '../http/slice.js';
import { CATEGORY_NAME_MISSING_ROUTE, PRODUCTS_ROUTES } from './products-routes.js';

export interface ProductsSliceOptions {
  catalogue: CachedCatalogue;
  mountCached: CachedRouteMount;
}

/**
 * Room for the bodies cut from a large list: a 5,000-product list is about 2.3 MB of JSON, 2.8 MB with its gzip and
 * brotli bodies, and most views (a category, a short limit, a page of 24 products at some 20 KB) are a small part of it.
 */
const LIST_BODIES_MAX_BYTES = 24 * 1024 * 1024;

/** The JSON API's product routes (products-routes.ts), mounted under `/api`, each answered from the cached catalogue. */
export function createProductsSlice({ catalogue, mountCached }: ProductsSliceOptions): Slice {
  const router = Router();
  mountApiRoute(router, CATEGORY_NAME_MISSING_ROUTE, () => undefined);
  // In the order products-routes.ts lists them, Express's: the list first, `:id` last. A new route is a new entry there.
  mountCached(router, Object.values(PRODUCTS_ROUTES), { catalogue, bodies: createDerivedBodyCache(LIST_BODIES_MAX_BYTES) });
  return { mount: 'api', router, close: () => undefined };
}
