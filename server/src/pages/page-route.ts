import { parseProductId } from '@catalogue/shared/product-id';
import { parsePageNumber, readProductsQuery } from '@catalogue/shared/product-paging';
import { PAGE_PATHS, PRODUCTS_PARAMS, productDetailsPath } from '@catalogue/shared/routes';
import { isSortOption, type SortOption } from '@catalogue/shared/sort';
import { decodePathSegment } from '../http/decode-path-segment.js';

/** Which page a URL names, with what it needs to fetch and describe it. */
export type PageRoute =
  | { kind: 'home' }
  /**
   * `category` is the exact name of `?category=` ('' for every category); whether the catalogue has it is the
   * data's to say, and so is whether it has `page` (1-based).
   */
  | { kind: 'products'; query: string; category: string; sort: SortOption; page: number }
  | { kind: 'product'; id: number }
  | { kind: 'invalid-id' }
  | { kind: 'not-found' };

const PRODUCT_DETAILS_PREFIX = PAGE_PATHS.productDetailsPattern.replace(':id', '');

/**
 * The page of a request URL (path and query, as received), read the way the browser's router reads it: path
 * matched without regard to case or a trailing slash, the id percent-decoded, `q`, `category` and `sort` from the
 * query (an unknown sort is none). docs/product.md, "Routes and layout" and "Products".
 */
export function resolvePage(url: string): PageRoute {
  // Split by hand: `new URL` would read `//host/…` as another host's URL.
  const queryAt = url.indexOf('?');
  const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
  const searchParams = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const lower = path.toLowerCase();
  if (lower === PAGE_PATHS.home) return { kind: 'home' };
  if (lower === PAGE_PATHS.products) {
    const { search, category, sort, page } = readProductsQuery(searchParams);
    return { kind: 'products', query: search, category, sort, page };
  }
  if (lower.startsWith(PRODUCT_DETAILS_PREFIX)) {
    const segment = path.slice(PRODUCT_DETAILS_PREFIX.length);
    if (segment === '' || segment.includes('/')) return { kind: 'not-found' };
    const id = parseProductId(decodePathSegment(segment));
    return id === null ? { kind: 'invalid-id' } : { kind: 'product', id };
  }
  return { kind: 'not-found' };
}

/**
 * The page's canonical path, or null for pages that are not to be indexed. The sort only reorders a list, so it
 * is dropped; the category and the search text change what the list holds, so they stay (the category exact, the
 * search trimmed), in that order, and so does the page past the first, which shows other products:
 * `/products?category=jewelery&q=gold&page=2`.
 */
export function canonicalPath(route: PageRoute): string | null {
  switch (route.kind) {
    case 'home':
      return PAGE_PATHS.home;
    case 'products': {
      const params = new URLSearchParams();
      if (route.category !== '') params.set(PRODUCTS_PARAMS.category, route.category);
      const query = route.query.trim();
      if (query !== '') params.set(PRODUCTS_PARAMS.search, query);
      if (route.page !== 1) params.set(PRODUCTS_PARAMS.page, String(route.page));
      return params.size > 0 ? `${PAGE_PATHS.products}?${params.toString()}` : PAGE_PATHS.products;
    }
    case 'product':
      return productDetailsPath(route.id);
    case 'invalid-id':
    case 'not-found':
      return null;
  }
}

/** Longer search texts are still answered, just not kept in the page cache: nobody shares them. */
const CACHEABLE_QUERY_MAX_CHARS = 100;

/**
 * Whether the rendered HTML of this exact URL may be kept in the page cache: only the pages that answer 200
 * with the catalogue's data (an unknown category answers 404, so it is never kept), and only in the spellings the
 * site itself writes (`/`, `/products` with a `q`, a `category` and a sort other than none, each non-empty and at
 * most once, in any order, encoded as URLSearchParams encodes them, a `page` from 2 up without leading zeros, `/productdetails/<id>` without leading
 * zeros). Any other spelling (`/products/`, `?utm_source=…`, `%20` for a space, `/productdetails/007`) is
 * rendered for that request and not kept, so the space of cached URLs stays what the site links to.
 */
export function isCacheablePageUrl(url: string): boolean {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  if (path === PAGE_PATHS.home || path.startsWith(PRODUCT_DETAILS_PREFIX)) {
    const route = resolvePage(path);
    return queryAt === -1 && route.kind !== 'not-found' && route.kind !== 'invalid-id' && canonicalPath(route) === path;
  }
  if (path !== PAGE_PATHS.products) return false;
  if (queryAt === -1) return true;
  const query = url.slice(queryAt + 1);
  const params = new URLSearchParams(query);
  const names = [...params.keys()];
  if (names.length === 0 || new Set(names).size !== names.length) return false;
  const known: readonly string[] = Object.values(PRODUCTS_PARAMS);
  if (!names.every((name) => known.includes(name))) return false;
  const q = params.get(PRODUCTS_PARAMS.search);
  const sort = params.get(PRODUCTS_PARAMS.sort);
  const page = params.get(PRODUCTS_PARAMS.page);
  if (q !== null && (q === '' || q.length > CACHEABLE_QUERY_MAX_CHARS)) return false;
  if (params.get(PRODUCTS_PARAMS.category) === '') return false;
  if (sort !== null && (!isSortOption(sort) || sort === 'none')) return false;
  if (page !== null && (parsePageNumber(page) === null || page === '1')) return false;
  return params.toString() === query;
}
