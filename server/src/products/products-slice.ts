import { MESSAGES } from '@catalogue/shared/messages';
import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { answerFailures } from '../http/failure-answers.js';
import type { Failure } from '../outcomes/failure.js';
import type { HttpCachingPolicy } from '../http/answer.js';
import { cachedApiRoute, mountApiRoute, mountCachedRoutes } from '../http/api-route.js';
import type { Slice } from '../http/slice.js';
import type { Logger } from '../logger.js';
import { jsonAnswer } from './json-answer.js';
import { createListViews } from './list-views.js';
import { PRODUCTS_ROUTES } from './products-routes.js';
import { createSearchView } from './search-view.js';

export interface ProductsSliceOptions {
  catalogue: CachedCatalogue;
  caching: HttpCachingPolicy;
  logger: Logger;
}

/** The list, the search, the categories and a category (docs/api.md, "Errors"). */
const LIST_FAILURES: Record<Failure, string> = {
  'not-found': MESSAGES.notFound,
  unavailable: MESSAGES.catalogueUnavailable,
  'timed-out': MESSAGES.catalogueTimeout,
};

/** One product: the page shows 'Product not found' for any failure, and so does the API (docs/api.md, "Errors"). */
const PRODUCT_FAILURES: Record<Failure, string> = {
  'not-found': MESSAGES.productNotFound,
  unavailable: MESSAGES.productNotFound,
  'timed-out': MESSAGES.productNotFound,
};

/**
 * The JSON API's product routes (products-routes.ts), mounted under `/api`: the list and its views
 * (list-views.ts), the paged search (search-view.ts) and one product, each answered from the cached catalogue.
 * Each is declared once with its two reads (http/api-route.ts, CachedApiRoute): Express answers every request
 * with `get`; the response cache in front answers those whose entry is fresh and prepared with `peek`, after
 * the same route's reading of the URL.
 */
export function createProductsSlice({ catalogue, caching, logger }: ProductsSliceOptions): Slice {
  const views = createListViews(catalogue);
  const search = createSearchView(catalogue);
  const listFailures = answerFailures(LIST_FAILURES, logger);
  const { list, search: searchRoute, categories, categoryMissing, category, product } = PRODUCTS_ROUTES;

  const router = Router();
  // Only its 400, before `:id` would read `category` as an id.
  mountApiRoute(router, categoryMissing, () => undefined);
  // In Express's order (products-routes.ts): the list first, the request the response cache answers most; `:id` last.
  const cacheableRoutes = mountCachedRoutes(
    router,
    [
      cachedApiRoute(list, {
        get: (options) => views.get({ of: 'products', ...options }),
        peek: (options) => views.peek({ of: 'products', ...options }),
        failures: listFailures,
      }),
      cachedApiRoute(searchRoute, { get: (query) => search.get(query), peek: (query) => search.peek(query), failures: listFailures }),
      cachedApiRoute(categories, {
        get: () => views.get({ of: 'categories' }),
        peek: () => views.peek({ of: 'categories' }),
        failures: listFailures,
      }),
      cachedApiRoute(category, {
        get: (view) => views.get({ of: 'category', ...view }),
        peek: (view) => views.peek({ of: 'category', ...view }),
        failures: listFailures,
      }),
      cachedApiRoute(product, {
        get: async (id) => jsonAnswer(await catalogue.getProduct(id)),
        peek: (id) => {
          const entry = catalogue.peekProduct(id);
          return entry && jsonAnswer(entry);
        },
        failures: answerFailures(PRODUCT_FAILURES, logger),
      }),
    ],
    caching,
  );
  return { mount: 'api', router, cacheableRoutes, close: () => undefined };
}
