import { productsInCategory } from './categories.js';
import type { Product } from './product.js';
import {
  inPriceRange,
  MAX_FILTER_PRICE,
  parseFilterPrice,
  parseMinRating,
  type ProductFacets,
  type ProductsFilters,
  ratedAtLeast,
} from './product-filters.js';
import { PAGE_PATHS, PRODUCTS_PARAMS } from './routes.js';
import { COMPARATORS, isSortOption, searchableText, searchNeedle, SORT_OPTIONS, type SortOption } from './sort.js';

/**
 * The products list is shown one page at a time (docs/product.md, "Products"): 24 cards, six full rows at four
 * columns, four at three, twelve at two. A page of a 50,000-product catalogue is then as heavy as the whole
 * Fake Store's, for the server's HTML, its state block and the browser's grid alike.
 */
export const PRODUCTS_PAGE_SIZE = 24;

/**
 * Up to this many products, the whole list travels to the browser (in the page's state block, or from
 * `/api/products`) and the page filters, sorts and pages it there as the visitor types, with no request per
 * keystroke. Past it, the browser asks the server for each page (`/api/products/search`). At about 500 bytes of
 * JSON a product, this many are some 100 KB: well inside a page's budget of 250 KB of HTML.
 */
export const LOCAL_LIST_MAX_PRODUCTS = 200;

/** One page of what a search, a category and a sort select: what `/api/products/search` answers. */
export interface ProductSearchPage {
  /** The products of this page, in the list's order. */
  items: Product[];
  /** How many products the search and the category select in all. */
  total: number;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** How many products the whole catalogue holds (the count's "3 of 12 products"). */
  catalogueSize: number;
  /** The counts for the search and filters, each leaving out its own kind of filter (product-filters.ts). */
  facets: ProductFacets;
}

/**
 * What the products list shows, `?q&category&sort&page` (docs/product.md, "Products"): the one type of it for the
 * page, the search API, the server's render and the browser's toolbar alike; where the page is not in question
 * (the toolbar, the filter rule) it is `Omit<ProductsQuery, 'page'>`. The Fake Store's own list (`/api/products?limit&sort`,
 * a category's list) asks something else, by id order and a count rather than by search, sort and page: that is the
 * catalogue's ListSelection (server/src/catalogue/list/catalogue-queries.ts), the one other type for what the list shows.
 * Both spell "every category" `''`, as the URL does by having no `category` or an empty one.
 */
export interface ProductsQuery extends ProductsFilters {
  /** Text the titles must contain, ignoring case and the ends' spaces ('' or blank: every title), as typed. */
  search: string;
  /** A category's exact name (shared/src/categories.ts); '' for every category. */
  category: string;
  sort: SortOption;
  /** 1-based. */
  page: number;
}

/**
 * The products list's one rule, for the browser and the server's render alike: filter by category, then by text
 * (a case-insensitive substring of the title), then by price range and least rating (product-filters.ts), then
 * sort. Array.prototype.sort is stable, so ties keep the catalogue's order. Never mutates its input.
 */
export function filterAndSortProducts<T extends Product>(
  products: readonly T[],
  { category = '', search = '', sort = 'none', ...filters }: Partial<Omit<ProductsQuery, 'page'>>,
): T[] {
  const inCategory = category === '' ? products : productsInCategory(products, category);
  const needle = searchNeedle(search);
  const filtered = inCategory.filter(
    (product) =>
      (needle === '' || searchableText(product.title).includes(needle)) &&
      inPriceRange(product.price, filters) &&
      ratedAtLeast(product, filters.minRating),
  );
  return sort === 'none' ? filtered : filtered.sort(COMPARATORS[sort]);
}

/** How many pages `total` products fill: at least one, which says "No products found." when empty. */
export function pageCount(total: number, pageSize = PRODUCTS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The items of one page (1-based) of a list. */
export function pageItems<T>(items: readonly T[], page: number, pageSize = PRODUCTS_PAGE_SIZE): T[] {
  return items.slice((page - 1) * pageSize, page * pageSize);
}

/** The largest page number read: a bound keeps `page` a count, and no catalogue has this many pages. */
export const MAX_PAGE = 1_000_000;

/** A page number as the site writes it: digits, no leading zero, from 1 to MAX_PAGE; otherwise null. */
export function parsePageNumber(raw: string | null): number | null {
  if (raw === null || !/^[1-9][0-9]*$/.test(raw)) return null;
  const page = Number(raw);
  return page <= MAX_PAGE ? page : null;
}

/**
 * Longer than any title a visitor would type; a bound keeps the API's cache keys small. Counted in Unicode code
 * points, as JSON Schema's `maxLength` counts them in the OpenAPI document: an emoji is one character, not the two
 * UTF-16 units of a JavaScript string's `length`.
 */
export const MAX_SEARCH_CHARS = 200;

/** The length JSON Schema gives `text`: its code points (a lone surrogate counts as one, as it does there). */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _codePoint of text) count += 1;
  return count;
}

/**
 * The bar's suggestions' reading of `?q` (`/api/products/suggestions`), as strict as the search's: `q` at most once
 * and at most MAX_SEARCH_CHARS; absent or blank suggests nothing. Other parameters are ignored.
 */
export function parseSuggestionsQuery(params: URLSearchParams): string | { error: string } {
  if (params.getAll(PRODUCTS_PARAMS.search).length > 1) return { error: PRODUCTS_QUERY_ERRORS.repeated(PRODUCTS_PARAMS.search) };
  const search = params.get(PRODUCTS_PARAMS.search) ?? '';
  if (search.length > MAX_SEARCH_CHARS && codePointLength(search) > MAX_SEARCH_CHARS) return { error: PRODUCTS_QUERY_ERRORS.search };
  return search;
}

/** The strict reading's 400 messages, each naming its parameter (docs/api.md, "Errors"). */
export const PRODUCTS_QUERY_ERRORS = {
  repeated: (name: string) => `${name} must be given at most once`,
  search: `${PRODUCTS_PARAMS.search} must be at most ${MAX_SEARCH_CHARS} characters`,
  sort: `${PRODUCTS_PARAMS.sort} must be one of ${SORT_OPTIONS.map((option) => option.value).join(', ')}`,
  page: `${PRODUCTS_PARAMS.page} must be a whole number from 1 to ${MAX_PAGE}`,
  price: (name: string) => `${name} must be a number of dollars from 0 to ${MAX_FILTER_PRICE}`,
  priceRange: `${PRODUCTS_PARAMS.minPrice} must not be more than ${PRODUCTS_PARAMS.maxPrice}`,
  minRating: `${PRODUCTS_PARAMS.minRating} must be a whole number from 1 to 4`,
} as const;

/**
 * The one reading of `?q&category&sort&page&minPrice&maxPrice&minRating`, for the page and the API alike. `lenient`
 * is the page's: an unknown sort is none, a `page` that is not a page number the first, a price or rating that is
 * not one no filter, a price range given backwards the range the right way round, a repeated parameter its first
 * value, so an odd link still shows the list. `strict` is the API's (`/api/products/search`): each parameter at
 * most once, `q` at most MAX_SEARCH_CHARS, `minPrice` not above `maxPrice`, anything else a 400 whose message names
 * the parameter. Other parameters are ignored by both.
 */
export function parseProductsQuery(params: URLSearchParams, mode: 'lenient'): ProductsQuery;
export function parseProductsQuery(params: URLSearchParams, mode: 'strict'): ProductsQuery | { error: string };
export function parseProductsQuery(params: URLSearchParams, mode: 'lenient' | 'strict'): ProductsQuery | { error: string } {
  if (mode === 'lenient') return readProductsQuery(params);
  const search = params.get(PRODUCTS_PARAMS.search) ?? '';
  const category = params.get(PRODUCTS_PARAMS.category) ?? '';
  const rawSort = params.get(PRODUCTS_PARAMS.sort);
  const rawPage = params.get(PRODUCTS_PARAMS.page);
  const sort = isSortOption(rawSort) ? rawSort : null;
  const page = parsePageNumber(rawPage);

  for (const name of Object.values(PRODUCTS_PARAMS)) {
    if (params.getAll(name).length > 1) return { error: PRODUCTS_QUERY_ERRORS.repeated(name) };
  }
  // A string of more code points than the bound has more UTF-16 units too, so only a long one is counted.
  if (search.length > MAX_SEARCH_CHARS && codePointLength(search) > MAX_SEARCH_CHARS) return { error: PRODUCTS_QUERY_ERRORS.search };
  if (rawSort !== null && sort === null) return { error: PRODUCTS_QUERY_ERRORS.sort };
  if (rawPage !== null && page === null) return { error: PRODUCTS_QUERY_ERRORS.page };
  const filters: ProductsFilters = {};
  for (const name of [PRODUCTS_PARAMS.minPrice, PRODUCTS_PARAMS.maxPrice] as const) {
    const raw = params.get(name);
    if (raw === null) continue;
    const price = parseFilterPrice(raw);
    if (price === null) return { error: PRODUCTS_QUERY_ERRORS.price(name) };
    filters[name] = price;
  }
  if (filters.minPrice !== undefined && filters.maxPrice !== undefined && filters.minPrice > filters.maxPrice) {
    return { error: PRODUCTS_QUERY_ERRORS.priceRange };
  }
  const rawRating = params.get(PRODUCTS_PARAMS.minRating);
  if (rawRating !== null) {
    const minRating = parseMinRating(rawRating);
    if (minRating === null) return { error: PRODUCTS_QUERY_ERRORS.minRating };
    filters.minRating = minRating;
  }
  return { search, category, sort: sort ?? 'none', page: page ?? 1, ...filters };
}

/**
 * The lenient reading alone (parseProductsQuery's `lenient`), for the pages: the browser's bundle then carries
 * neither the strict reading nor its messages.
 */
export function readProductsQuery(params: URLSearchParams): ProductsQuery {
  const sort = params.get(PRODUCTS_PARAMS.sort);
  const query: ProductsQuery = {
    search: params.get(PRODUCTS_PARAMS.search) ?? '',
    category: params.get(PRODUCTS_PARAMS.category) ?? '',
    sort: isSortOption(sort) ? sort : 'none',
    page: parsePageNumber(params.get(PRODUCTS_PARAMS.page)) ?? 1,
  };
  const low = parseFilterPrice(params.get(PRODUCTS_PARAMS.minPrice));
  const high = parseFilterPrice(params.get(PRODUCTS_PARAMS.maxPrice));
  // A range typed the wrong way round is read the right way round: the visitor meant the prices between.
  const backwards = low !== null && high !== null && low > high;
  if (low !== null) query[backwards ? 'maxPrice' : 'minPrice'] = low;
  if (high !== null) query[backwards ? 'minPrice' : 'maxPrice'] = high;
  const minRating = parseMinRating(params.get(PRODUCTS_PARAMS.minRating));
  if (minRating !== null) query.minRating = minRating;
  return query;
}

/**
 * Whether a raw query string (what follows `?`, undecoded) is spelt exactly as the site writes one
 * (productsQueryString), its parameters in any order: each non-default part once, nothing else. What the page
 * cache keeps, so the space of cached URLs stays what the site links to. `params` and `query` are the caller's
 * reading of `rawQuery`, when it has one (page-routes.ts).
 */
export function isSiteProductsQuery(
  rawQuery: string,
  params = new URLSearchParams(rawQuery),
  query: ProductsQuery = readProductsQuery(params),
): boolean {
  if (params.toString() !== rawQuery) return false;
  const canonical = new URLSearchParams(productsQueryString(query));
  return params.size === canonical.size && [...params].every(([name, value]) => canonical.get(name) === value);
}

/** The fields of the products page's GET form as it sends them when the visitor left them unset (`sort=none`: no sort). */
const UNSET_FORM_FIELDS: ReadonlySet<string> = new Set([
  `${PRODUCTS_PARAMS.search}=`,
  `${PRODUCTS_PARAMS.category}=`,
  `${PRODUCTS_PARAMS.sort}=none`,
  `${PRODUCTS_PARAMS.minPrice}=`,
  `${PRODUCTS_PARAMS.maxPrice}=`,
  `${PRODUCTS_PARAMS.minRating}=`,
]);

/**
 * A raw query string (what follows `?`, undecoded) without the fields the products page's GET form sends empty when
 * the visitor leaves them so: without scripts the form sends every field, `q=&category=&sort=none&minPrice=&…`.
 * Each means "not set", as readProductsQuery reads it; what is left is the query as the app spells the same list
 * (isSiteProductsQuery), so the page and the app agree on one URL for it.
 */
export function withoutUnsetFormFields(rawQuery: string): string {
  if (rawQuery === '') return rawQuery;
  return rawQuery
    .split('&')
    .filter((field) => !UNSET_FORM_FIELDS.has(field))
    .join('&');
}

/**
 * The query string of a products list state, in the site's one spelling: `q`, `category`, `sort`, `minPrice`,
 * `maxPrice`, `minRating`, `page`, each only when it is not the default (no search, every category, no sort, no
 * filter, the first page), encoded as URLSearchParams encodes it. Empty for the whole list's first page.
 */
export function productsQueryString({ search, category, sort, page, minPrice, maxPrice, minRating }: ProductsQuery): string {
  const params = new URLSearchParams();
  if (search !== '') params.set(PRODUCTS_PARAMS.search, search);
  if (category !== '') params.set(PRODUCTS_PARAMS.category, category);
  if (sort !== 'none') params.set(PRODUCTS_PARAMS.sort, sort);
  if (minPrice !== undefined) params.set(PRODUCTS_PARAMS.minPrice, String(minPrice));
  if (maxPrice !== undefined) params.set(PRODUCTS_PARAMS.maxPrice, String(maxPrice));
  if (minRating !== undefined) params.set(PRODUCTS_PARAMS.minRating, String(minRating));
  if (page !== 1) params.set(PRODUCTS_PARAMS.page, String(page));
  return params.toString();
}

/** `/products?…` for a list state: what the page numbers and the previous and next links point at. */
export function productsPagePath(query: ProductsQuery): string {
  const search = productsQueryString(query);
  return search === '' ? PAGE_PATHS.products : `${PAGE_PATHS.products}?${search}`;
}
