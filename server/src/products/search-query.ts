import { MAX_PAGE, parsePageNumber, type ProductsQuery } from '@catalogue/shared/product-paging';
import { PRODUCTS_PARAMS } from '@catalogue/shared/routes';
import { isSortOption, SORT_OPTIONS } from '@catalogue/shared/sort';

/*
 * `GET /api/products/search?q=&category=&sort=&page=` (docs/api.md, "Routes"): the products list's own rule
 * (shared/src/sort.ts) over the whole catalogue, one page at a time, with the page's parameters and vocabulary.
 * Each parameter is optional and given at most once; anything else is a 400 whose message names the parameter.
 */

/** Longer than any title a visitor would type; a bound keeps the cache's keys small. */
export const MAX_SEARCH_CHARS = 200;

export const SEARCH_QUERY_ERRORS = {
  repeated: (name: string) => `${name} must be given at most once`,
  search: `${PRODUCTS_PARAMS.search} must be at most ${MAX_SEARCH_CHARS} characters`,
  sort: `${PRODUCTS_PARAMS.sort} must be one of ${SORT_OPTIONS.map((option) => option.value).join(', ')}`,
  page: `${PRODUCTS_PARAMS.page} must be a whole number from 1 to ${MAX_PAGE}`,
} as const;

/** Reads the search from a raw query string (what follows `?`, undecoded); other parameters are ignored. */
export function parseSearchQuery(rawQuery: string): ProductsQuery | { error: string } {
  const params = new URLSearchParams(rawQuery);
  for (const name of Object.values(PRODUCTS_PARAMS)) {
    if (params.getAll(name).length > 1) return { error: SEARCH_QUERY_ERRORS.repeated(name) };
  }
  const search = params.get(PRODUCTS_PARAMS.search) ?? '';
  if (search.length > MAX_SEARCH_CHARS) return { error: SEARCH_QUERY_ERRORS.search };
  const sort = params.get(PRODUCTS_PARAMS.sort) ?? 'none';
  if (!isSortOption(sort)) return { error: SEARCH_QUERY_ERRORS.sort };
  const rawPage = params.get(PRODUCTS_PARAMS.page);
  const page = rawPage === null ? 1 : parsePageNumber(rawPage);
  if (page === null) return { error: SEARCH_QUERY_ERRORS.page };
  return { search, category: params.get(PRODUCTS_PARAMS.category) ?? '', sort, page };
}
