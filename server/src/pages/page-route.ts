import { type PageRoute, productsQueryOf, readPageUrl } from '@catalogue/shared/page-routes';
import { productsPagePath } from '@catalogue/shared/product-paging';
import { PAGE_PATHS, PRODUCTS_PARAMS, productDetailsPath } from '@catalogue/shared/routes';

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
      const query = route.search.trim();
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

/** Longer search texts are still answered, just not cached as pages: nobody shares them. */
const CACHEABLE_QUERY_MAX_CHARS = 100;

/** A page request as the site's routes read it, once per path (the response cache's, Express's): readPage. */
export interface PageRead {
  /** Path and query as received: what a page not cached is rendered for. */
  url: string;
  route: PageRoute;
  /**
   * The page cache's name for this page, when it keeps it: the route's own path (sitePath), so the spellings
   * of one page the site writes (`?q=bag&sort=nameAZ`, `?sort=nameAZ&q=bag`) are one page. Undefined for a
   * page rendered for this request only: an error page, another spelling, a long search text.
   */
  cachedAs: string | undefined;
}

/**
 * A page URL read once (readPageUrl, shared/src/page-routes.ts): its route, and whether its HTML is cached — only
 * the pages that answer with the catalogue's data, only in the site's own spellings, so the space of cached URLs
 * stays what the site links to. Whether a cached page has its data (an unknown category answers 404 and is not cached)
 * is the data's to say (page-data.ts).
 */
export function readPage(url: string): PageRead {
  const { route, siteSpelling } = readPageUrl(url);
  return { url, route, cachedAs: siteSpelling ? sitePath(route) : undefined };
}

function sitePath(route: PageRoute): string | undefined {
  switch (route.kind) {
    case 'home':
      return PAGE_PATHS.home;
    case 'products':
      return route.search.length <= CACHEABLE_QUERY_MAX_CHARS ? productsPagePath(productsQueryOf(route)) : undefined;
    case 'product':
      return productDetailsPath(route.id);
    case 'invalid-id':
    case 'not-found':
      return undefined;
  }
}
