// The operations of the products' and the photo's paths (products/products-routes.ts, images/image-route.ts), as
// the OpenAPI document (openapi-document.ts) lists them.
import { MESSAGES } from '@catalogue/shared/messages';
import { PRODUCTS_PAGE_SIZE } from '@catalogue/shared/product-paging';
import type { OperationObject } from 'openapi3-ts/oas31';
import { MALFORMED_ESCAPE } from '../http/errors.js';
import { PRODUCTS_QUERY_ERRORS } from '@catalogue/shared/product-paging';
import { MISSING_CATEGORY_NAME } from '../products/products-routes.js';
import {
  ANY_REQUEST_RESPONSES,
  errorResponse,
  INVALID_QUERY_MESSAGES,
  JSON_TYPE,
  LIST_FAILURE_RESPONSES,
  listResponse,
} from './openapi-components.js';
import { CATALOGUE_HEADERS, RATE_LIMIT_HEADERS } from './openapi-headers.js';
import { ref } from './openapi-ref.js';
import { EXAMPLE_CATEGORIES, EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING } from './openapi-schemas.js';

export const PRODUCT_TAG = 'Products';
export const CATEGORY_TAG = 'Categories';

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

const IMAGE_HEADERS = {
  ETag: ref('headers', 'ImageETag'),
  'Cache-Control': ref('headers', 'CacheControlImage'),
  ...RATE_LIMIT_HEADERS,
};

export const getProductImage: OperationObject = {
  operationId: 'getProductImage',
  summary: 'A product’s image',
  description: [
    'The image at the URL the upstream gave for this product (never a URL a client supplies), fetched by this server, so browsers only ever talk to this origin. Each product’s `image` field is this route.',
    '',
    `Without \`w\`: the upstream’s bytes and content type. With \`w\`: resized to that width, in **AVIF** when \`Accept\` names \`image/avif\`, else **WebP** when it names \`image/webp\`, else the photo’s own JPEG or PNG (other formats become PNG); an SVG is sent unchanged. Every image carries a sandboxing \`Content-Security-Policy\`.`,
  ].join('\n'),
  tags: [PRODUCT_TAG],
  parameters: [ref('parameters', 'ProductId'), ref('parameters', 'ImageWidth')],
  responses: {
    '200': {
      description:
        'The image, with a sandboxing `Content-Security-Policy`. A resized one also carries `Age`, `X-Cache` and `Vary: Accept` (its format follows `Accept`).',
      headers: IMAGE_HEADERS,
      content: { 'image/*': {} },
    },
    '304': { description: 'The `If-None-Match` named the current image.', headers: IMAGE_HEADERS },
    '400': errorResponse('An id that is not made of digits; a `w` that is not one of the listed widths, empty, or given twice.', [
      MESSAGES.invalidProductId,
      MESSAGES.invalidImageWidth,
    ]),
    '404': ref('responses', 'NotFound'),
    ...ANY_REQUEST_RESPONSES,
    '502': errorResponse(
      'The image cannot be had: the catalogue failed, or the image could not be fetched, is not `image/*`, is over `IMAGE_MAX_BYTES`, is on an origin `IMAGE_HOSTS` does not allow, or (resizing) is not a readable image or declares over 25 megapixels.',
      [MESSAGES.catalogueUnavailable],
    ),
    '504': ref('responses', 'CatalogueTimeout'),
  },
};

export const searchProducts: OperationObject = {
  operationId: 'searchProducts',
  summary: 'One page of a search over the whole catalogue',
  description: `The products page's own rule over the cached list: the exact \`category\`, then the titles containing \`q\`, then \`sort\`; then page \`page\` of ${PRODUCTS_PAGE_SIZE}. Each page's body is prepared once per fill of the list and then only picked: no upstream call of its own. This is how the site searches a catalogue too large to send to the browser.`,
  tags: [PRODUCT_TAG],
  parameters: [
    ref('parameters', 'SearchText'),
    ref('parameters', 'SearchCategory'),
    ref('parameters', 'SearchSort'),
    ref('parameters', 'Page'),
  ],
  responses: {
    '200': {
      description: 'The page, with the totals.',
      headers: CATALOGUE_HEADERS,
      content: {
        [JSON_TYPE]: {
          schema: ref('schemas', 'ProductSearchPage'),
          example: { items: [EXAMPLE_PRODUCT], total: 1, page: 1, pageSize: PRODUCTS_PAGE_SIZE, catalogueSize: 20 },
        },
      },
    },
    '304': ref('responses', 'NotModified'),
    '400': errorResponse('A `q` too long, an unknown `sort`, a `page` that is not a page number, or a parameter given twice.', [
      PRODUCTS_QUERY_ERRORS.search,
      PRODUCTS_QUERY_ERRORS.sort,
      PRODUCTS_QUERY_ERRORS.page,
      PRODUCTS_QUERY_ERRORS.repeated('q'),
    ]),
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
