import { parseProductId } from '@catalogue/shared/product-id';
import { PAGE_PATHS, productDetailsPath } from '@catalogue/shared/routes';
import { isSortOption, type SortOption } from '@catalogue/shared/sort';

/** Which page a URL names, with what it needs to fetch and describe it. */
export type PageRoute =
  | { kind: 'home' }
  | { kind: 'products'; query: string; sort: SortOption }
  | { kind: 'product'; id: number }
  | { kind: 'invalid-id' }
  | { kind: 'not-found' };

const PRODUCT_DETAILS_PREFIX = PAGE_PATHS.productDetailsPattern.replace(':id', '');

/**
 * The page of a request URL (path and query, as received), read the way the browser's router reads it: path
 * matched without regard to case or a trailing slash, the id percent-decoded, `q` and `sort` from the query (an
 * unknown sort is none). docs/product.md, "Routes and layout".
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
    const sort = searchParams.get('sort');
    return { kind: 'products', query: searchParams.get('q') ?? '', sort: isSortOption(sort) ? sort : 'none' };
  }
  if (lower.startsWith(PRODUCT_DETAILS_PREFIX)) {
    const segment = path.slice(PRODUCT_DETAILS_PREFIX.length);
    if (segment === '' || segment.includes('/')) return { kind: 'not-found' };
    const id = parseProductId(decodeSegment(segment));
    return id === null ? { kind: 'invalid-id' } : { kind: 'product', id };
  }
  return { kind: 'not-found' };
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // a broken escape (`%E0%A4%A`) is no id at all
  }
}

/**
 * The page's canonical path, or null for pages that are not to be indexed. The sort only reorders a list, so it
 * is dropped; the search text changes what the list holds, so it stays (trimmed).
 */
export function canonicalPath(route: PageRoute): string | null {
  switch (route.kind) {
    case 'home':
      return PAGE_PATHS.home;
    case 'products': {
      const query = route.query.trim();
      return query ? `${PAGE_PATHS.products}?${new URLSearchParams({ q: query }).toString()}` : PAGE_PATHS.products;
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
 * with the catalogue's data, and only in the spellings the site itself writes (`/`, `/products` with `q` and a
 * sort other than none, each at most once, encoded as URLSearchParams encodes them, `/productdetails/<id>` without
 * leading zeros). Any other spelling (`/products/`, `?utm_source=…`, `%20` for a space, `/productdetails/007`)
 * is rendered for that request and not kept, so the space of cached URLs stays what the site links to.
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
  if (!names.every((name) => name === 'q' || name === 'sort')) return false;
  const q = params.get('q');
  const sort = params.get('sort');
  if (q !== null && (q === '' || q.length > CACHEABLE_QUERY_MAX_CHARS)) return false;
  if (sort !== null && (!isSortOption(sort) || sort === 'none')) return false;
  return params.toString() === query;
}
