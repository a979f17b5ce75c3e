import { type PageRoute, resolvePage } from '@catalogue/shared/page-routes';
import { parseProductId } from '@catalogue/shared/product-id';
import { PAGE_PATHS, PRODUCTS_PARAMS, productDetailsPath } from '@catalogue/shared/routes';
import { isSiteProductsQuery } from '@catalogue/shared/product-paging';

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

/** The pages whose HTML the page cache keeps: those that answer with the catalogue's data. */
type CacheablePage = 'home' | 'products' | 'product';

/** `/productdetails/<id>` as the site writes it: the id's digits without leading zeros, nothing after. */
const PRODUCT_DETAILS_PATH = new RegExp(`^${PAGE_PATHS.productDetailsPattern.replace(':id', '(0|[1-9][0-9]*)')}$`);

/**
 * Whether `url` is spelt exactly as the site writes a `page` URL, the only spellings the page cache keeps: `/`,
 * `/products` with a query in the site's own spelling (isSiteProductsQuery, shared/src/product-paging.ts) whose
 * search text is at most CACHEABLE_QUERY_MAX_CHARS, `/productdetails/<id>` without leading zeros. Any other
 * spelling (`/products/`, `?utm_source=…`, `%20` for a space, `/productdetails/007`) is rendered for that request
 * and not kept, so the space of cached URLs stays what the site links to. Read from the text alone, before any
 * resolving.
 */
function isSiteSpelling(url: string, page: CacheablePage): boolean {
  switch (page) {
    case 'home':
      return url === PAGE_PATHS.home;
    case 'product': {
      const digits = PRODUCT_DETAILS_PATH.exec(url)?.[1];
      return digits !== undefined && parseProductId(digits) !== null;
    }
    case 'products': {
      const queryAt = url.indexOf('?');
      if (queryAt === -1) return url === PAGE_PATHS.products;
      const query = url.slice(queryAt + 1);
      return (
        url.slice(0, queryAt) === PAGE_PATHS.products &&
        query !== '' &&
        isSiteProductsQuery(query) &&
        (new URLSearchParams(query).get(PRODUCTS_PARAMS.search)?.length ?? 0) <= CACHEABLE_QUERY_MAX_CHARS
      );
    }
  }
}

/**
 * The route of `url` when it is a `page` URL the page cache may keep, else undefined. The spelling is tested
 * first, so only a URL the response cache will look up is resolved, and of the three pages' routes one at most.
 */
export function cacheablePageRoute(url: string, page: CacheablePage): PageRoute | undefined {
  if (!isSiteSpelling(url, page)) return undefined;
  const route = resolvePage(url);
  return route.kind === page ? route : undefined;
}

/**
 * Whether the rendered HTML of this exact URL, already resolved to `route`, may be kept in the page cache: only the
 * pages that answer with the catalogue's data (an unknown category answers 404, so it is never kept), and only in
 * the site's own spellings (isSiteSpelling).
 */
export function isCacheablePageUrl(url: string, route: PageRoute): boolean {
  return (route.kind === 'home' || route.kind === 'products' || route.kind === 'product') && isSiteSpelling(url, route.kind);
}
