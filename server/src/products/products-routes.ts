import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { parseProductsQuery, parseSuggestionsQuery, type ProductsQuery } from '@catalogue/shared/product-paging';
import type { CacheEntry, CachedCatalogue, ListQuestion, ListSelection } from '../catalogue/caches/cached-catalogue.js';
import type { Answer } from '../http/answer.js';
import type { CachedRoute, Route } from '../http/cached-route.js';
import type { EncodedBody } from '../bodies/encoded-body.js';
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

/** What the products' routes answer from: the cached catalogue. */
export interface ProductsParts {
  catalogue: CachedCatalogue;
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

/**
 * A route answered from the cached list, with the list entry's freshness and never another upstream request: the
 * question it asks of the list (`question`), whose body the catalogue cuts and keeps (caches/cached-catalogue.ts).
 */
function fromTheList<Input>({
  question,
  ...route
}: Route<Input> & { question: (input: Input) => ListQuestion }): CachedRoute<Input, ProductsParts> {
  return {
    ...route,
    scope: 'api',
    failures: LIST_FAILURES,
    answer: async (input, { catalogue }) => {
      const { entry, body, release } = await catalogue.listBody(question(input));
      return { ...jsonAnswer(entry, body), ...(release && { release }) };
    },
  };
}

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
    question: (selection) => ({ kind: 'selection', selection }),
  }),
  search: fromTheList<ProductsQuery>({
    path: '/products/search',
    operation: searchProducts,
    read: ({ query }) => parseProductsQuery(new URLSearchParams(query), 'strict'),
    question: (query) => ({ kind: 'search', query }),
  }),
  suggestions: fromTheList<string>({
    path: '/products/suggestions',
    operation: suggestProducts,
    read: ({ query }) => parseSuggestionsQuery(new URLSearchParams(query)),
    question: (search) => ({ kind: 'suggestions', search }),
  }),
  categories: fromTheList<null>({
    path: '/products/categories',
    operation: listCategories,
    read: () => null,
    question: () => ({ kind: 'categories' }),
  }),
  category: fromTheList<ListSelection>({
    path: '/products/category/:name',
    operation: listProductsInCategory,
    // Decoded as Express decodes it (`%2F` is a slash in the name); an undecodable one never gets here (errors.ts).
    read: ({ params, query }) => parseListSelection(query, params.name ?? ''),
    question: (selection) => ({ kind: 'selection', selection }),
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
