// The operations of the products' paths in the OpenAPI document, each its route's (products-routes.ts), with the
// Fake Store list's own parameters, `limit` and `sort`.
import { MESSAGES } from '@catalogue/shared/messages';
import { PRODUCTS_PAGE_SIZE } from '@catalogue/shared/product-paging';
import { SUGGESTED_PRODUCTS } from '@catalogue/shared/product-suggestions';
import type { OperationObject, ParameterObject } from 'openapi3-ts/oas31';
import { MALFORMED_ESCAPE } from '../http/errors.js';
import { PRODUCTS_QUERY_ERRORS } from '@catalogue/shared/product-paging';
import { LIST_OPTIONS_ERRORS, MAX_LIST_LIMIT } from './list-options.js';
import {
  ANY_REQUEST_RESPONSES,
  CATEGORY_TAG,
  errorResponse,
  JSON_TYPE,
  LIST_FAILURE_RESPONSES,
  listResponse,
  PRODUCT_TAG,
} from '../api-description/openapi-components.js';
import { CATALOGUE_HEADERS } from '../api-description/openapi-headers.js';
import { ref } from '../api-description/openapi-ref.js';
import { EXAMPLE_CATEGORIES, EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING } from '../api-description/openapi-schemas.js';

/** `/api/products/category/` names no category; the route is there to say so rather than read `category` as an id. */
export const MISSING_CATEGORY_NAME = 'A category name is needed: /api/products/category/{name}';

const INVALID_QUERY_MESSAGES = Object.values(LIST_OPTIONS_ERRORS);

/** The Fake Store list's parameters (list-options.ts), among the document's shared parameters. */
export const LIST_PARAMETERS: Record<string, ParameterObject> = {
  Limit: {
    name: 'limit',
    in: 'query',
    description: `Answer only the first \`limit\` products (after sorting). A whole number from 1 to ${MAX_LIST_LIMIT}, written in digits; anything else, an empty value or \`limit\` given twice is a \`400\`. Absent: all of them.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT },
    example: 5,
  },
  Sort: {
    name: 'sort',
    in: 'query',
    description:
      'Order by id: `asc` or `desc`. Anything else, an empty value or `sort` given twice is a `400`. Absent: the upstream’s order (the Fake Store’s is ascending id).',
    schema: { type: 'string', enum: ['asc', 'desc'] },
    example: 'desc',
  },
};

export const listProducts: OperationObject = {
  operationId: 'listProducts',
  summary: 'All products',
  description:
    'The products in the upstream’s order, or sorted by id with `sort`, and the first `limit` of them. Items of the wrong shape are dropped (and logged), unknown fields are dropped, and `rating` is missing where the upstream has none.',
  tags: [PRODUCT_TAG],
  parameters: [ref('parameters', 'Limit'), ref('parameters', 'Sort')],
  responses: {
    '200': listResponse('The products.'),
    '304': ref('responses', 'NotModified'),
    '400': errorResponse('A `limit` or `sort` that is not one of the accepted values, empty, or given twice.', INVALID_QUERY_MESSAGES),
    ...ANY_REQUEST_RESPONSES,
    ...LIST_FAILURE_RESPONSES,
  },
};

export const getProduct: OperationObject = {
  operationId: 'getProduct',
  summary: 'One product',
  description:
    'One product, cached on its own. Unlike the Fake Store, which answers `200` with `null` or an empty body for an unknown id, this answers `404`. Every failure of the upstream, a timeout included, carries the message `Product not found`, as the product page shows.',
  tags: [PRODUCT_TAG],
  parameters: [ref('parameters', 'ProductId')],
  responses: {
    '200': {
      description: 'The product.',
      headers: CATALOGUE_HEADERS,
      content: {
        [JSON_TYPE]: {
          schema: ref('schemas', 'Product'),
          examples: {
            rated: { summary: 'A product with a rating', value: EXAMPLE_PRODUCT },
            unrated: { summary: 'A product the upstream sends without a rating', value: EXAMPLE_PRODUCT_WITHOUT_RATING },
          },
        },
      },
    },
    '304': ref('responses', 'NotModified'),
    '400': errorResponse('An id that is not made of digits or is beyond 2^53 − 1; a malformed percent escape.', [
      MESSAGES.invalidProductId,
      MALFORMED_ESCAPE,
    ]),
    '404': ref('responses', 'NotFound'),
    ...ANY_REQUEST_RESPONSES,
    '502': errorResponse('The upstream failed and no usable copy of this product is cached.', [MESSAGES.productNotFound]),
    '504': errorResponse('The upstream did not answer in time and no usable copy of this product is cached.', [MESSAGES.productNotFound]),
  },
};

export const searchProducts: OperationObject = {
  operationId: 'searchProducts',
  summary: 'One page of a search over the whole catalogue',
  description: `The products page's own rule over the cached list: the exact \`category\`, then the titles containing \`q\`, then the price range (\`minPrice\`, \`maxPrice\`) and the least rating (\`minRating\`), then \`sort\`; then page \`page\` of ${PRODUCTS_PAGE_SIZE}. Beside the page, \`facets\`: each category's count, each least rating's count and the price range left, each taken without its own kind of filter, as a shop's filter counts are. Each page's body is prepared once per fill of the list and then only picked: no upstream call of its own. This is how the site searches a catalogue too large to send to the browser.`,
  tags: [PRODUCT_TAG],
  parameters: [
    ref('parameters', 'SearchText'),
    ref('parameters', 'SearchCategory'),
    ref('parameters', 'SearchSort'),
    ref('parameters', 'MinPrice'),
    ref('parameters', 'MaxPrice'),
    ref('parameters', 'MinRating'),
    ref('parameters', 'Page'),
  ],
  responses: {
    '200': {
      description: 'The page, with the totals.',
      headers: CATALOGUE_HEADERS,
      content: {
        [JSON_TYPE]: {
          schema: ref('schemas', 'ProductSearchPage'),
          example: {
            items: [EXAMPLE_PRODUCT],
            total: 1,
            page: 1,
            pageSize: PRODUCTS_PAGE_SIZE,
            catalogueSize: 20,
            facets: {
              categories: [
                { name: "men's clothing", count: 1 },
                { name: 'jewelery', count: 0 },
              ],
              ratings: [
                { min: 4, count: 0 },
                { min: 3, count: 1 },
                { min: 2, count: 1 },
                { min: 1, count: 1 },
              ],
              price: { min: 109.95, max: 109.95 },
            },
          },
        },
      },
    },
    '304': ref('responses', 'NotModified'),
    '400': errorResponse(
      'A `q` too long, an unknown `sort`, a `page` that is not a page number, a price that is not a number of dollars or a range given backwards, a `minRating` outside 1–4, or a parameter given twice.',
      [
        PRODUCTS_QUERY_ERRORS.search,
        PRODUCTS_QUERY_ERRORS.sort,
        PRODUCTS_QUERY_ERRORS.page,
        PRODUCTS_QUERY_ERRORS.price('minPrice'),
        PRODUCTS_QUERY_ERRORS.priceRange,
        PRODUCTS_QUERY_ERRORS.minRating,
        PRODUCTS_QUERY_ERRORS.repeated('q'),
      ],
    ),
    ...ANY_REQUEST_RESPONSES,
    ...LIST_FAILURE_RESPONSES,
  },
};

export const suggestProducts: OperationObject = {
  operationId: 'suggestProducts',
  summary: 'What the search in the bar suggests',
  description: `The first ${SUGGESTED_PRODUCTS} products, in the catalogue's order, whose titles contain \`q\` (the products page's search rule), and every category whose name contains it. A blank or absent \`q\` suggests nothing. Each text's body is prepared once per fill of the list: no upstream call of its own.`,
  tags: [PRODUCT_TAG],
  parameters: [ref('parameters', 'SearchText')],
  responses: {
    '200': {
      description: 'The suggestions.',
      headers: CATALOGUE_HEADERS,
      content: {
        [JSON_TYPE]: {
          schema: ref('schemas', 'ProductSuggestions'),
          example: { products: [EXAMPLE_PRODUCT], categories: ["men's clothing"] },
        },
      },
    },
    '304': ref('responses', 'NotModified'),
    '400': errorResponse('A `q` too long, or given twice.', [PRODUCTS_QUERY_ERRORS.search, PRODUCTS_QUERY_ERRORS.repeated('q')]),
    ...ANY_REQUEST_RESPONSES,
    ...LIST_FAILURE_RESPONSES,
  },
};

export const listCategories: OperationObject = {
  operationId: 'listCategories',
  summary: 'The category names',
  description:
    'Each category name once, in the order the products first list it (the Fake Store’s order), spelt exactly as the upstream spells it. Computed from the cached list: no upstream call of its own.',
  tags: [CATEGORY_TAG],
  responses: {
    '200': {
      description: 'The names.',
      headers: CATALOGUE_HEADERS,
      content: { [JSON_TYPE]: { schema: ref('schemas', 'Categories'), example: EXAMPLE_CATEGORIES } },
    },
    '304': ref('responses', 'NotModified'),
    ...ANY_REQUEST_RESPONSES,
    ...LIST_FAILURE_RESPONSES,
  },
};

export const listProductsInCategory: OperationObject = {
  operationId: 'listProductsInCategory',
  summary: 'The products of one category',
  description:
    'The products whose `category` is exactly `name`, in the list’s order, then sorted and limited as `/products` is. An unknown name answers `[]`, as the Fake Store does. Computed from the cached list: no upstream call of its own.',
  tags: [CATEGORY_TAG],
  parameters: [ref('parameters', 'CategoryName'), ref('parameters', 'Limit'), ref('parameters', 'Sort')],
  responses: {
    '200': listResponse('The products of that category; `[]` for an unknown one.'),
    '304': ref('responses', 'NotModified'),
    '400': errorResponse('A `limit` or `sort` that is not one of the accepted values, empty, or given twice; a malformed percent escape.', [
      ...INVALID_QUERY_MESSAGES,
      MALFORMED_ESCAPE,
    ]),
    ...ANY_REQUEST_RESPONSES,
    ...LIST_FAILURE_RESPONSES,
  },
};

export const categoryNameMissing: OperationObject = {
  operationId: 'categoryNameMissing',
  summary: 'No category named',
  description: 'Without a name this path names no category; it says so rather than read `category` as a product id.',
  tags: [CATEGORY_TAG],
  responses: {
    '400': errorResponse('Always: a name is needed.', [MISSING_CATEGORY_NAME]),
    ...ANY_REQUEST_RESPONSES,
  },
};
