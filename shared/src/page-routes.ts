import { parseProductId } from './product-id.js';
import { isSiteProductsQuery, type ProductsQuery, readProductsQuery, withoutUnsetFormFields } from './product-paging.js';
import { PAGE_PATHS, productDetailsPath } from './routes.js';

/** The site's pages, by name. */
export type PageName = 'home' | 'products' | 'productDetails' | 'notFound';

/**
 * The page route table: each page's path pattern in React Router's syntax. The browser app builds its React Router
 * routes from it (client/src/app/router.tsx) and the server reads every page request against it (readPageUrl),
 * so the two read a URL alike. No two patterns match one path but the last, which takes every other path.
 */
export const PAGE_ROUTES = [
  { page: 'home', path: PAGE_PATHS.home },
  { page: 'products', path: PAGE_PATHS.products },
  { page: 'productDetails', path: PAGE_PATHS.productDetailsPattern },
  { page: 'notFound', path: '*' },
] as const satisfies readonly { page: PageName; path: string }[];

/** A path's page and its parameters (`id` of `/productdetails/:id`), as React Router gives them to the page. */
export interface PageMatch {
  page: PageName;
  params: Readonly<Partial<Record<string, string>>>;
}

/**
 * A pattern as React Router 7 compiles it (its `compilePath`, for the syntax the table uses: static segments,
 * `:name`, and `*` alone): any letter case, trailing slashes ignored, a parameter one whole non-empty segment, and
 * `*` every path, its splat parameter (`*`) the path after the first `/`.
 */
function compile(pattern: string): { test: RegExp; names: string[] } {
  const names: string[] = [];
  const source = pattern
    .replace(/\/*\*?$/, '')
    .replace(/^\/*/, '/')
    .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
    .replace(/\/:([\w-]+)/g, (_segment, name: string) => {
      names.push(name);
      return '/([^\\/]+)';
    });
  if (pattern !== '*') return { test: new RegExp(`^${source}\\/*$`, 'i'), names };
  names.push('*');
  return { test: new RegExp(`^${source}(.*)$`, 'i'), names };
}

let compiled: ({ page: PageName } & ReturnType<typeof compile>)[] | undefined;

/**
 * The table compiled, on the first match: only the server matches paths itself (the browser has React Router), and a
 * table compiled as the module loads would go into the browser's bundle with it.
 */
function compiledRoutes(): ({ page: PageName } & ReturnType<typeof compile>)[] {
  compiled ??= PAGE_ROUTES.map(({ page, path }) => ({ page, ...compile(path) }));
  return compiled;
}

/**
 * React Router's reading of a path before it matches: each segment percent-decoded, a `/` decoded inside one kept
 * as `%2F` (so it cannot split a segment), and the path left as it is if any escape is malformed.
 */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

/** The page a pathname shows, matched as React Router matches the same table (client/src/app/router.test.tsx holds the two equal). */
export function matchPageRoute(pathname: string): PageMatch {
  const decoded = decodePath(pathname);
  for (const { page, test, names } of compiledRoutes()) {
    const found = test.exec(decoded);
    if (found === null) continue;
    // React Router gives a parameter with the `%2F` it kept turned back into `/`.
    const params = Object.fromEntries(names.map((name, index) => [name, (found[index + 1] ?? '').replace(/%2F/g, '/')]));
    return { page, params };
  }
  // Unreachable: the last pattern matches every path.
  return { page: 'notFound', params: {} };
}

/** Which page a URL names, with what it needs to fetch and describe it. */
export type PageRoute =
  | { kind: 'home' }
  /**
   * What `?q&category&sort&page&minPrice&maxPrice&minRating` ask (ProductsQuery): whether the catalogue has the category is the data's to say,
   * and so is whether it has the page.
   */
  | ({ kind: 'products' } & ProductsQuery)
  | { kind: 'product'; id: number }
  | { kind: 'invalid-id' }
  | { kind: 'not-found' };

/** A page URL read once: the page it names, and whether it is spelt exactly as the site writes that page's links. */
export interface PageUrl {
  route: PageRoute;
  /**
   * `/`, `/products` with no query or one in the site's own spelling (isSiteProductsQuery, product-paging.ts, its
   * parameters in any order), `/productdetails/<id>` with the id's digits and nothing after. Any other spelling
   * (`/products/`, `?utm_source=…`, `%20` for a space, `/productdetails/007`) names the same page by another URL.
   */
  siteSpelling: boolean;
}

/**
 * The page of a request URL (path and query, as received), read once per request by the server and passed along
 * (to the data it loads, the head it writes, the renderer): the path matched against the table as the browser's
 * router matches it, the id parsed, `q`, `category`, `sort` and `page` read from the query (an unknown sort is
 * none, an odd page the first), and whether the URL is in the site's spelling. docs/product.md, "Routes and layout"
 * and "Products".
 */
export function readPageUrl(url: string): PageUrl {
  // Split by hand: `new URL` would read `//host/…` as another host's URL.
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const { page, params } = matchPageRoute(path);
  switch (page) {
    case 'home':
      return { route: { kind: 'home' }, siteSpelling: url === PAGE_PATHS.home };
    case 'products': {
      const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1);
      const searchParams = new URLSearchParams(rawQuery);
      const query = readProductsQuery(searchParams);
      // The GET form's unset fields (`q=&minPrice=…`, sent without scripts) spell the same list as the app's URL.
      const setFields = withoutUnsetFormFields(rawQuery);
      const siteSpelling =
        path === PAGE_PATHS.products &&
        (queryAt === -1 ||
          (rawQuery !== '' && (setFields === '' || isSiteProductsQuery(setFields, new URLSearchParams(setFields), query))));
      return { route: { kind: 'products', ...query }, siteSpelling };
    }
    case 'productDetails': {
      const id = parseProductId(params.id);
      if (id === null) return { route: { kind: 'invalid-id' }, siteSpelling: false };
      return { route: { kind: 'product', id }, siteSpelling: url === productDetailsPath(id) };
    }
    case 'notFound':
      return { route: { kind: 'not-found' }, siteSpelling: false };
  }
}

/**
 * What the products list of a page shows: `/` the catalogue's first page, in the catalogue's order; `/products`
 * what its URL asks for. The one conversion, for the data the server loads and the queries the render seeds.
 */
export function productsQueryOf(route: { kind: 'home' } | Extract<PageRoute, { kind: 'products' }>): ProductsQuery {
  if (route.kind === 'home') return FIRST_PAGE;
  const { kind: _kind, ...query } = route;
  return query;
}

const FIRST_PAGE: ProductsQuery = Object.freeze({ search: '', category: '', sort: 'none', page: 1 });

/** The page that shows a route: an invalid id is the product page saying so. */
export function pageOf(route: PageRoute): PageName {
  switch (route.kind) {
    case 'home':
    case 'products':
      return route.kind;
    case 'product':
    case 'invalid-id':
      return 'productDetails';
    case 'not-found':
      return 'notFound';
  }
}
