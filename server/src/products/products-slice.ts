import { Router } from 'express';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { catalogueErrorHandlers } from '../catalogue/error-answers.js';
import type { HttpCachingPolicy } from '../http/answer.js';
import { cacheableApiRoute, mountApiRoute } from '../http/api-route.js';
import { sendCachedAnswer } from '../http/send-answer.js';
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

/**
 * The JSON API's product routes (products-routes.ts), mounted under `/api`: the list and its views
 * (list-views.ts), the paged search (search-view.ts) and one product, each answered from the cached catalogue.
 * Express answers every request; the response cache in front answers those whose entry is fresh and prepared,
 * with the same route's reading of the URL.
 */
export function createProductsSlice({ catalogue, caching, logger }: ProductsSliceOptions): Slice {
  const views = createListViews(catalogue);
  const search = createSearchView(catalogue);
  const answerErrors = catalogueErrorHandlers(logger);
  const { list, search: searchRoute, categories, categoryMissing, category, product } = PRODUCTS_ROUTES;

  const router = Router();
  mountApiRoute(
    router,
    list,
    async (options, req, res) => sendCachedAnswer(req, res, await views.answer({ of: 'products', ...options }), caching),
    answerErrors.list,
  );
  mountApiRoute(
    router,
    searchRoute,
    async (query, req, res) => sendCachedAnswer(req, res, await search.answer(query), caching),
    answerErrors.list,
  );
  mountApiRoute(
    router,
    categories,
    async (_all, req, res) => sendCachedAnswer(req, res, await views.answer({ of: 'categories' }), caching),
    answerErrors.list,
  );
  mountApiRoute(router, categoryMissing, () => undefined);
  mountApiRoute(
    router,
    category,
    async (view, req, res) => sendCachedAnswer(req, res, await views.answer({ of: 'category', ...view }), caching),
    answerErrors.list,
  );
  mountApiRoute(
    router,
    product,
    async (id, req, res) => sendCachedAnswer(req, res, jsonAnswer(await catalogue.getProduct(id)), caching),
    answerErrors.product,
  );

  return {
    mount: 'api',
    router,
    // The list first: the request the response cache answers most.
    cacheableRoutes: [
      cacheableApiRoute(list, (options) => views.peek({ of: 'products', ...options })),
      cacheableApiRoute(product, (id) => {
        const entry = catalogue.peekProduct(id);
        return entry && jsonAnswer(entry);
      }),
      cacheableApiRoute(searchRoute, (query) => search.peek(query)),
      cacheableApiRoute(categories, () => views.peek({ of: 'categories' })),
      cacheableApiRoute(category, (view) => views.peek({ of: 'category', ...view })),
    ],
    close: () => undefined,
  };
}
