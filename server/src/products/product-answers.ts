import type { ProductsQuery } from '@catalogue/shared/product-paging';
import { parseProductId } from '@catalogue/shared/product-id';
import { API_PATHS } from '@catalogue/shared/routes';
import type { CachedCatalogue } from '../catalogue/cached-catalogue.js';
import type { CacheableRoute } from '../http/response-cache.js';
import { decodePathSegment } from '../http/decode-path-segment.js';
import { jsonAnswer } from './json-answer.js';
import { parseListQuery } from './list-options.js';
import type { ListView, ListViews } from './list-views.js';
import { parseSearchQuery } from './search-query.js';
import type { SearchView } from './search-view.js';

const PRODUCT_PATH_PREFIX = `${API_PATHS.products}/`;
const LIST_QUERY_PREFIX = `${API_PATHS.products}?`;
const CATEGORIES_PATH = `${API_PATHS.products}/categories`;
const CATEGORY_PATH_PREFIX = `${API_PATHS.products}/category/`;
const SEARCH_QUERY_PREFIX = `${API_PATHS.search}?`;

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
      peek: () => {
        const answer = catalogue.peekList();
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
      peek: (key) => {
        const answer = catalogue.peekProduct(Number(key));
        return answer && jsonAnswer(answer);
      },
    },
  ];
}

/**
 * The list's views for the response cache: `/api/products?…`, `/api/products/categories` and
 * `/api/products/category/<name>[?…]` whose body is prepared already (list-views.ts). The key is the view as
 * JSON. A URL Express would refuse (a bad limit, an undecodable name; one over the length limit never gets here,
 * response-cache.ts) is left to Express, which says why; so is any other spelling (a trailing slash, another case).
 */
export function cacheableViewRoutes(views: ListViews): CacheableRoute[] {
  const peek = (key: string) => views.peek(JSON.parse(key) as ListView);
  return [
    {
      pattern: API_PATHS.products,
      rateLimited: true,
      match: (url) => {
        if (!url.startsWith(LIST_QUERY_PREFIX)) return undefined;
        const query = parseListQuery(url.slice(LIST_QUERY_PREFIX.length));
        return 'error' in query ? undefined : JSON.stringify({ of: 'products', ...query } satisfies ListView);
      },
      peek,
    },
    {
      pattern: CATEGORIES_PATH,
      rateLimited: true,
      match: (url) => (url === CATEGORIES_PATH ? JSON.stringify({ of: 'categories' } satisfies ListView) : undefined),
      peek,
    },
    {
      pattern: `${CATEGORY_PATH_PREFIX}:name`,
      rateLimited: true,
      match: (url) => {
        if (!url.startsWith(CATEGORY_PATH_PREFIX)) return undefined;
        const queryStart = url.indexOf('?');
        const rawName = url.slice(CATEGORY_PATH_PREFIX.length, queryStart === -1 ? undefined : queryStart);
        if (rawName === '' || rawName.includes('/')) return undefined;
        const name = decodePathSegment(rawName);
        const query = parseListQuery(queryStart === -1 ? '' : url.slice(queryStart + 1));
        if (name === undefined || 'error' in query) return undefined;
        return JSON.stringify({ of: 'category', name, ...query } satisfies ListView);
      },
      peek,
    },
  ];
}

/**
 * `/api/products/search[?…]` whose page is prepared already (search-view.ts), keyed by the query it reads. A query
 * Express would refuse (search-query.ts) is left to it, which says why.
 */
export function cacheableSearchRoute(search: SearchView): CacheableRoute<ProductsQuery> {
  return {
    pattern: API_PATHS.search,
    rateLimited: true,
    match: (url) => {
      if (url !== API_PATHS.search && !url.startsWith(SEARCH_QUERY_PREFIX)) return undefined;
      const query = parseSearchQuery(url.slice(SEARCH_QUERY_PREFIX.length));
      return 'error' in query ? undefined : query;
    },
    peek: (query) => search.peek(query),
  };
}
