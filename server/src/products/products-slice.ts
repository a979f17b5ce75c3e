import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import type { Logger } from '../logger.js';
import type { HttpCachingPolicy } from '../http/answer.js';
import { jsonAnswer } from './json-answer.js';
import { catalogueErrorHandlers } from '../catalogue/error-answers.js';
import { type ListQuery, parseListQuery, rawQueryOf } from './list-options.js';
import type { ListViews } from './list-views.js';
import { parseSearchQuery } from './search-query.js';
import type { SearchView } from './search-view.js';
import { allowOnlyGetAndHead } from '../http/method-not-allowed.js';
import { sendCachedAnswer } from '../http/send-answer.js';

/** `/api/products/category/` names no category; the route is there to say so rather than read `category` as an id. */
export const MISSING_CATEGORY_NAME = 'A category name is needed: /api/products/category/{name}';

export interface ProductsRouterOptions {
  catalogue: CachedCatalogue;
  /** The list's views (`?limit&sort`, categories), made by buildServer and shared with the response cache. */
  views: ListViews;
  /** Paged search over the whole list, made by buildServer and shared with the response cache. */
  search: SearchView;
  caching: HttpCachingPolicy;
  logger: Logger;
}

/**
 * `/products` (`?limit&sort`), `/products/search`, `/products/categories`, `/products/category/:name` and
 * `/products/:id`, mounted under `/api` (before the images slice's `/products/:id/image`). The search and category
 * routes come first, so that `search`,
 * `categories` and `category` are never read as ids, and a category named `image` is a category.
 */
export function createProductsRouter({ catalogue, views, search, caching, logger }: ProductsRouterOptions): Router {
  const router = Router();
  const answerErrors = catalogueErrorHandlers(logger);

  router
    .route('/products')
    .get(
      withListQuery(async (query, req, res) => {
        sendCachedAnswer(req, res, await views.answer({ of: 'products', ...query }), caching);
      }),
      answerErrors.list,
    )
    .all(allowOnlyGetAndHead);

  router
    .route('/products/categories')
    .get(async (req: Request, res: Response) => {
      sendCachedAnswer(req, res, await views.answer({ of: 'categories' }), caching);
    }, answerErrors.list)
    .all(allowOnlyGetAndHead);

  router
    .route('/products/search')
    .get(async (req: Request, res: Response) => {
      const query = parseSearchQuery(rawQueryOf(req.originalUrl));
      if ('error' in query) {
        res.status(400).set('Cache-Control', 'no-store').json({ error: query.error });
        return;
      }
      sendCachedAnswer(req, res, await search.answer(query), caching);
    }, answerErrors.list)
    .all(allowOnlyGetAndHead);

  router
    .route('/products/category')
    .get((_req, res) => {
      res.status(400).set('Cache-Control', 'no-store').json({ error: MISSING_CATEGORY_NAME });
    })
    .all(allowOnlyGetAndHead);

  router
    .route('/products/category/:name')
    .get(
      withListQuery(async (query, req, res) => {
        // Express has decoded the name (`%2F` is a slash in it); an undecodable one never gets here (errors.ts).
        sendCachedAnswer(req, res, await views.answer({ of: 'category', name: String(req.params.name), ...query }), caching);
      }),
      answerErrors.list,
    )
    .all(allowOnlyGetAndHead);

  router
    .route('/products/:id')
    .get(
      withProductId(async (id, req, res) => {
        sendCachedAnswer(req, res, jsonAnswer(await catalogue.getProduct(id)), caching);
      }),
      answerErrors.product,
    )
    .all(allowOnlyGetAndHead);

  return router;
}

/** Answers a bad `limit` or `sort` with a 400 before anything reaches the catalogue (list-query.ts). */
function withListQuery(handle: (query: ListQuery, req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res) => {
    const query = parseListQuery(rawQueryOf(req.originalUrl));
    if ('error' in query) {
      res.status(400).set('Cache-Control', 'no-store').json({ error: query.error });
      return;
    }
    await handle(query, req, res);
  };
}

/** Rejects ids that are not plain digits before anything reaches the upstream, which hangs on them. */
function withProductId(handle: (id: number, req: Request, res: Response) => Promise<void>): RequestHandler {
  return async (req, res) => {
    const raw = req.params.id;
    const id = parseProductId(typeof raw === 'string' ? raw : undefined);
    if (id === null) {
      res.status(400).set('Cache-Control', 'no-store').json({ error: MESSAGES.invalidProductId });
      return;
    }
    await handle(id, req, res);
  };
}
