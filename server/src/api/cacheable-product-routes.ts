import { parseProductId } from '@catalogue/shared/product-id';
import { API_PATHS } from '@catalogue/shared/routes';
import type { CachedAnswer, CachedCatalogue } from '../catalogue/cached-catalogue.js';
import type { CacheableAnswer } from '../response-cache/cached-answer.js';
import type { CacheableRoute } from '../response-cache/response-cache.js';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const PRODUCT_PATH_PREFIX = `${API_PATHS.products}/`;

/** A catalogue answer as the response cache sends it: JSON, varying by encoding only. */
export function jsonAnswer({ body, cacheStatus, ageSeconds, freshForSeconds }: CachedAnswer<unknown>): CacheableAnswer {
  return { body, contentType: JSON_CONTENT_TYPE, cacheStatus, ageSeconds, freshForSeconds };
}

/**
 * `GET /api/products` and `/api/products/<digits>` for the response cache in front of Express: fresh copies are
 * answered there; the routes in products-router.ts answer the rest. Leading zeros name the same product, as
 * they do for the Express route.
 */
export function cacheableProductRoutes(catalogue: CachedCatalogue): CacheableRoute[] {
  return [
    {
      pattern: API_PATHS.products,
      rateLimited: true,
      match: (url) => (url === API_PATHS.products ? 'list' : undefined),
      peekFresh: () => {
        const answer = catalogue.peekListHit();
        return answer && jsonAnswer(answer);
      },
    },
    {
      pattern: `${API_PATHS.products}/:id`,
      rateLimited: true,
      match: (url) => {
        if (!url.startsWith(PRODUCT_PATH_PREFIX)) return undefined;
        const id = parseProductId(url.slice(PRODUCT_PATH_PREFIX.length));
        return id === null ? undefined : String(id);
      },
      peekFresh: (key) => {
        const answer = catalogue.peekProductHit(Number(key));
        return answer && jsonAnswer(answer);
      },
    },
  ];
}
