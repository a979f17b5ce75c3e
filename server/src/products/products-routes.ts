import { MESSAGES } from '@catalogue/shared/messages';
import { parseProductId } from '@catalogue/shared/product-id';
import { parseProductsQuery, type ProductsQuery } from '@catalogue/shared/product-paging';
import { apiRoute } from '../http/api-route.js';
import { type ListOptions, parseListOptions } from './list-options.js';

/** `/api/products/category/` names no category; the route is there to say so rather than read `category` as an id. */
export const MISSING_CATEGORY_NAME = 'A category name is needed: /api/products/category/{name}';

/** What a route that reads nothing of the request answers for. */
const ALL = 'all';

/**
 * The products slice's `/api` routes, each declared once (http/api-route.ts): its path feeds Express, the
 * response cache and the OpenAPI document (openapi/openapi-document.ts); its `read` is the one reading of the
 * request, for Express and the response cache alike (docs/api.md, "Routes" and "Errors"). Listed in the order
 * Express mounts them: `search`, `categories` and `category` before `:id`, so that none is read as an id and a
 * category named `image` is a category (the images slice's `/products/:id/image` comes after).
 */
export const PRODUCTS_ROUTES = {
  list: apiRoute<ListOptions>({ path: '/products', readsQuery: true, read: ({ query }) => parseListOptions(query) }),
  search: apiRoute<ProductsQuery>({
    path: '/products/search',
    readsQuery: true,
    read: ({ query }) => parseProductsQuery(new URLSearchParams(query), 'strict'),
  }),
  categories: apiRoute<typeof ALL>({ path: '/products/categories', readsQuery: false, read: () => ALL }),
  categoryMissing: apiRoute<never>({
    path: '/products/category',
    readsQuery: false,
    read: () => ({ error: MISSING_CATEGORY_NAME }),
  }),
  category: apiRoute<{ name: string } & ListOptions>({
    path: '/products/category/:name',
    readsQuery: true,
    read: ({ params, query }) => {
      const options = parseListOptions(query);
      // Decoded as Express decodes it (`%2F` is a slash in the name); an undecodable one never gets here (errors.ts).
      return 'error' in options ? options : { name: params.name ?? '', ...options };
    },
  }),
  product: apiRoute<number>({
    path: '/products/:id',
    readsQuery: false,
    // Ids that are not plain digits never reach the upstream, which hangs on them.
    read: ({ params }) => parseProductId(params.id) ?? { error: MESSAGES.invalidProductId },
  }),
};
