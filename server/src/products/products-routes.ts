import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { parseProductsQuery, parseSuggestionsQuery, type ProductsQuery } from '@catalogue/shared/product-paging';
import { searchNeedle } from '@catalogue/shared/sort';
import type { CacheEntry, CachedCatalogue, CatalogueList, ListSelection } from '../catalogue/caches/cached-catalogue.js';
import type { DerivedBodyCache } from '../catalogue/caches/derived-body-cache.js';
import type { Answer } from '../http/answer.js';
import type { CachedRoute, Route } from '../http/cached-route.js';
import { encodeJsonBody, type EncodedBody } from '../bodies/encoded-body.js';
import type { Failure } from '../outcomes/failure.js';
import { parseListSelection } from './list-options.js';
import {
  categoryNameMissing,
  getProduct,
  listCategories,
  listProducts,
  listProductsInCategory,
  MISSING_CATEGORY_NAME,
  searchProducts,
  suggestProducts,
} from './products-operations.js';

/** What the products' routes answer from: the cached catalogue, and the bodies cut from its list. */
export interface ProductsParts {
  catalogue: CachedCatalogue;
  bodies: DerivedBodyCache;
}

/** The list, the search, the categories and a category (docs/api.md, "Errors"). */
const LIST_FAILURES: Record<Failure, string> = {
  'not-found': MESSAGES.notFound,
  unavailable: MESSAGES.catalogueUnavailable,
  'timed-out': MESSAGES.catalogueTimeout,
};

/** One product: the page shows 'Product not found' for any failure, and so does the API (docs/api.md, "Errors"). */
const PRODUCT_FAILURES: Record<Failure, string> = {
  'not-found': MESSAGES.productNotFound,
  unavailable: MESSAGES.productNotFound,
  'timed-out': MESSAGES.productNotFound,
};

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A catalogue entry as an answer (JSON, varying by encoding only), with `body` cut from it or its own. */
function jsonAnswer(entry: CacheEntry<unknown>, body: EncodedBody = entry.body): Answer {
  const { cacheStatus, ageSeconds, freshForSeconds, storedAt, freshUntil } = entry;
  return { body, contentType: JSON_CONTENT_TYPE, cacheStatus, ageSeconds, freshForSeconds, freshness: { storedAt, freshUntil } };
}

/** Whether any encoding of a body is a file (a large whole list: catalogue/list/list-files.ts). */
const inFiles = (body: EncodedBody): boolean =>
  [body.identity, body.gzip, body.br].some((bytes) => bytes !== undefined && !Buffer.isBuffer(bytes));

/**
 * A route answered from the cached list, with the list entry's freshness and never another upstream request: its
 * body cut from the list where it is held (catalogue-list.ts) and compressed once per list fill, under `bodyKey`
 * (null: the list's own body, as the request answered most deserves).
 */
function fromTheList<Input>({
  bodyKey,
  body,
  ...route
}: Route<Input> & {
  bodyKey: (input: Input, list: CatalogueList) => string | null;
  body: (input: Input, list: CatalogueList) => Promise<EncodedBody>;
}): CachedRoute<Input, ProductsParts> {
  return {
    ...route,
    scope: 'api',
    failures: LIST_FAILURES,
    answer: (input, { catalogue, bodies }) =>
      catalogue.withList(async (list) => {
        const key = bodyKey(input, list.value);
        const answer = jsonAnswer(list, key === null ? list.body : await bodies.get(key, list.body, () => body(input, list.value), true));
        if (!inFiles(answer.body)) return answer;
        // Read from the list's files after this returns: the list is held until the answer is sent.
        list.value.hold();
        return { ...answer, release: () => list.value.release() };
      }),
  };
}

/**
 * The key of a Fake Store selection's body: every limit at or past what it selects is no limit, and every unknown
 * category selects nothing, so each such spelling shares one body. The category's name last: sort and limit come
 * from fixed vocabularies, so no name can forge another selection's key.
 */
function selectionKey({ category, sort, limit }: ListSelection, list: CatalogueList): string | null {
  let size = list.size;
  if (category !== '') {
    const index = list.categories.indexOf(category);
    if (index === -1) return 'nothing';
    size = list.categorySizes[index]!;
  }
  const cut = limit !== null && limit < size ? limit : null;
  if (category === '' && sort === null && cut === null) return null;
  return `list|sort:${sort ?? 'none'}|limit:${cut ?? 'all'}${category === '' ? '' : `|name:${category}`}`;
}

const selectionBody = (selection: ListSelection, list: CatalogueList) => list.selection(selection);

/**
 * The products slice's `/api` routes, each one object (http/cached-route.ts) with its OpenAPI operation
 * (products-operations.ts). Listed in the order Express mounts
 * them: `search`, `suggestions`, `categories` and `category` before `:id`, so that none is read as an id and a category named
 * `image` is a category (the images slice's `/products/:id/image` comes after).
 */
export const PRODUCTS_ROUTES = {
  list: fromTheList<ListSelection>({
    path: '/products',
    operation: listProducts,
    read: ({ query }) => parseListSelection(query, ''),
    bodyKey: selectionKey,
    body: selectionBody,
  }),
  search: fromTheList<ProductsQuery>({
    path: '/products/search',
    operation: searchProducts,
    read: ({ query }) => parseProductsQuery(new URLSearchParams(query), 'strict'),
    // The needle as the search compares it, and the filters as numbers: spellings the search reads alike share one body.
    bodyKey: ({ search, category, sort, page, minPrice, maxPrice, minRating }) =>
      `search|${JSON.stringify([searchNeedle(search), sort, page, category, minPrice ?? null, maxPrice ?? null, minRating ?? null])}`,
    body: (query, list) => list.searchPage(query),
  }),
  suggestions: fromTheList<string>({
    path: '/products/suggestions',
    operation: suggestProducts,
    read: ({ query }) => parseSuggestionsQuery(new URLSearchParams(query)),
    // Texts the search reads alike share one body.
    bodyKey: (search) => `suggestions|${JSON.stringify(searchNeedle(search))}`,
    body: (search, list) => list.suggestions(search),
  }),
  categories: fromTheList<null>({
    path: '/products/categories',
    operation: listCategories,
    read: () => null,
    bodyKey: () => 'categories',
    body: (_nothing, list) => encodeJsonBody(list.categories),
  }),
  category: fromTheList<ListSelection>({
    path: '/products/category/:name',
    operation: listProductsInCategory,
    // Decoded as Express decodes it (`%2F` is a slash in the name); an undecodable one never gets here (errors.ts).
    read: ({ params, query }) => parseListSelection(query, params.name ?? ''),
    bodyKey: selectionKey,
    body: selectionBody,
  }),
  product: {
    path: '/products/:id',
    operation: getProduct,
    scope: 'api',
    // Ids that are not plain digits never reach the upstream, which hangs on them.
    read: ({ params }) => parseProductId(params.id) ?? { error: MESSAGES.invalidProductId },
    failures: PRODUCT_FAILURES,
    answer: async (id, { catalogue }) => jsonAnswer(await catalogue.getProduct(id)),
  } satisfies CachedRoute<number, ProductsParts>,
};

/** Only its 400, mounted before `:id` would read `category` as an id. */
export const CATEGORY_NAME_MISSING_ROUTE: Route<never> = {
  path: '/products/category',
  operation: categoryNameMissing,
  read: () => ({ error: MISSING_CATEGORY_NAME }),
};
