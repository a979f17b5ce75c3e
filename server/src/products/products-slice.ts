import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import { type CachedRouteMount, mountApiRoute } from '../http/cached-route.js';
import type { Slice } from '../http/slice.js';
import { CATEGORY_NAME_MISSING_ROUTE, PRODUCTS_ROUTES } from './products-routes.js';

export interface ProductsSliceOptions {
  catalogue: CachedCatalogue;
  mountCached: CachedRouteMount;
}

/** The JSON API's product routes (products-routes.ts), mounted under `/api`, each answered from the cached catalogue. */
export function createProductsSlice({ catalogue, mountCached }: ProductsSliceOptions): Slice {
  const router = Router();
  mountApiRoute(router, CATEGORY_NAME_MISSING_ROUTE, () => undefined);
  // In the order products-routes.ts lists them, Express's: the list first, `:id` last. A new route is a new entry there.
  mountCached(router, Object.values(PRODUCTS_ROUTES), { catalogue });
  return { mount: 'api', router, close: () => undefined };
}
