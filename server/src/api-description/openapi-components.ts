// The OpenAPI document's shared components (openapi-document.ts): its responses and parameters, each written once
// and named by `$ref` from the operations that use them; the headers are openapi-headers.ts's.
import { STATUS_CODES } from 'node:http';
import { IMAGE_WIDTHS } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { MAX_PAGE, PRODUCTS_PAGE_SIZE } from '@catalogue/shared/product-paging';
import { SORT_OPTIONS } from '@catalogue/shared/sort';
import { MAX_FILTER_PRICE, MIN_RATINGS } from '@catalogue/shared/product-filters';
import type { ParameterObject, ResponseObject } from 'openapi3-ts/oas31';
import { MAX_SEARCH_CHARS } from '@catalogue/shared/product-paging';
import { MAX_API_URL_LENGTH } from '../http/uri-too-long.js';
import { EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING } from './openapi-schemas.js';
import { CATALOGUE_HEADERS, CORS_HEADERS, ERROR_HEADERS, UNREADABLE_REQUEST_HEADERS } from './openapi-headers.js';
import { UNREADABLE_REQUEST_MESSAGES } from '../http/unreadable-requests.js';
import { ref } from './openapi-ref.js';

export const PRODUCT_TAG = 'Products';
export const CATEGORY_TAG = 'Categories';

// ---------------------------------------------------------------------------------------------------------------
// Responses.

export const JSON_TYPE = 'application/json';

export function errorResponse(description: string, messages: string[], headers: ResponseObject['headers'] = ERROR_HEADERS): ResponseObject {
  return {
    description,
    headers,
    content: {
      [JSON_TYPE]: {
        schema: ref('schemas', 'Error'),
        examples: Object.fromEntries(messages.map((message, index) => [`e${index + 1}`, { value: { error: message } }])),
      },
    },
  };
}

export const RESPONSES: Record<string, ResponseObject> = {
  NotModified: {
    description: 'The `If-None-Match` named the current body: no body, the same headers as a `200` but the content ones.',
    headers: CATALOGUE_HEADERS,
  },
  NotFound: errorResponse('The upstream has no such product (it answered `404`, an empty body, `null`, or an object without `id`).', [
    MESSAGES.productNotFound,
  ]),
  NoSuchPath: errorResponse('The answer of every `/api` path no route takes, whatever the method.', [MESSAGES.notFound]),
  MethodNotAllowed: errorResponse(
    'The answer of every path to a method it does not document but `OPTIONS`: the API is read-only. Request bodies are never read.',
    [MESSAGES.methodNotAllowed],
    { ...ERROR_HEADERS, Allow: ref('headers', 'Allow') },
  ),
  Options: {
    description:
      'The answer of every path to `OPTIONS`, before the rate limit counts it: a CORS preflight (with `Access-Control-Request-Method`) also gets `Access-Control-Allow-Methods`, `Access-Control-Max-Age` and, when asked, `Access-Control-Allow-Headers`.',
    headers: {
      Allow: ref('headers', 'Allow'),
      'Cache-Control': ref('headers', 'CacheControlNoStore'),
      ...CORS_HEADERS,
      'Access-Control-Allow-Methods': ref('headers', 'AccessControlAllowMethods'),
      'Access-Control-Max-Age': ref('headers', 'AccessControlMaxAge'),
    },
  },
  UriTooLong: errorResponse(
    `The URL (path and query) is over ${MAX_API_URL_LENGTH.toLocaleString('en')} characters; refused before the rate limit counts it.`,
    // What refuseLongUrls (uri-too-long.ts) sends: Node's reason phrase.
    [STATUS_CODES[414]!],
    { 'Cache-Control': ref('headers', 'CacheControlNoStore'), ...CORS_HEADERS },
  ),
  MalformedRequest: errorResponse(
    'The request could not be read as one: bytes that are not well-formed HTTP (a raw non-ASCII byte or a space in the URL, a broken header line, conflicting lengths), or a `Host` header missing or given more than once. Answered, to any path and method, before the rate limit, CORS or a route sees it, where the connection still allows an answer; the connection is then closed. An operation’s own `400` is another answer, with its own message.',
    [UNREADABLE_REQUEST_MESSAGES.malformed, UNREADABLE_REQUEST_MESSAGES.host],
    UNREADABLE_REQUEST_HEADERS,
  ),
  RequestTimeout: errorResponse(
    'The request’s headers did not all arrive within the server’s header time limit, or the whole request within its request time limit (docs/operations.md). Answered to any path, then the connection is closed.',
    [UNREADABLE_REQUEST_MESSAGES.timeout],
    UNREADABLE_REQUEST_HEADERS,
  ),
  RequestHeadersTooLarge: errorResponse(
    'The request’s headers are over 16 KiB. Answered to any path before it is read, then the connection is closed.',
    [UNREADABLE_REQUEST_MESSAGES.headersTooLarge],
    UNREADABLE_REQUEST_HEADERS,
  ),
  TooManyRequests: errorResponse(
    'Over `RATE_LIMIT_PER_MINUTE` requests from this address in its one-minute window.',
    [MESSAGES.tooManyRequests],
    { ...ERROR_HEADERS, 'Retry-After': ref('headers', 'RetryAfter') },
  ),
  CatalogueUnavailable: errorResponse(
    'The upstream failed (refused, reset, a 5xx, HTML, broken JSON, the wrong shape) and no usable copy is cached.',
    [MESSAGES.catalogueUnavailable],
  ),
  CatalogueTimeout: errorResponse('The upstream did not answer within `UPSTREAM_TIMEOUT_MS` and no usable copy is cached.', [
    MESSAGES.catalogueTimeout,
  ]),
};

/** The answers every `/api` operation can give whatever its input: too long a URL, too many requests. */
export const ANY_REQUEST_RESPONSES = { '414': ref('responses', 'UriTooLong'), '429': ref('responses', 'TooManyRequests') };

/** The answers of an operation computed from the cached product list. */
export const LIST_FAILURE_RESPONSES = {
  '502': ref('responses', 'CatalogueUnavailable'),
  '504': ref('responses', 'CatalogueTimeout'),
};

export function listResponse(description: string): ResponseObject {
  return {
    description,
    headers: CATALOGUE_HEADERS,
    content: {
      [JSON_TYPE]: {
        schema: ref('schemas', 'Products'),
        example: [EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING],
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters.

export const PARAMETERS: Record<string, ParameterObject> = {
  ProductId: {
    name: 'id',
    in: 'path',
    required: true,
    description:
      'The product’s id: ASCII digits only (leading zeros name the same product), at most 2^53 − 1. Anything else (`abc`, `1.5`, `-1`, `1e3`, ` 1`) is a `400` without asking the upstream.',
    schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    example: 1,
  },
  SearchText: {
    name: 'q',
    in: 'query',
    description: `Keep the products whose title contains this text, ignoring case and the text's leading and trailing spaces. At most ${MAX_SEARCH_CHARS} characters, counted as this schema's \`maxLength\` counts them: Unicode code points, so an emoji is one. Absent or blank: every title.`,
    schema: { type: 'string', maxLength: MAX_SEARCH_CHARS },
    example: 'backpack',
  },
  SearchCategory: {
    name: 'category',
    in: 'query',
    description:
      'Keep the products of this category, its exact name as `/products/categories` lists it. An unknown name selects nothing. Absent: every category.',
    schema: { type: 'string' },
    example: 'jewelery',
  },
  SearchSort: {
    name: 'sort',
    in: 'query',
    description:
      'The products page’s orders: `priceLowHigh`, `priceHighLow`, `nameAZ` (titles compared as `localeCompare` does), or `none` (the catalogue’s order, the default). Ties keep the catalogue’s order.',
    schema: { type: 'string', enum: SORT_OPTIONS.map((option) => option.value) },
    example: 'priceLowHigh',
  },
  Page: {
    name: 'page',
    in: 'query',
    description: `Which page of ${PRODUCTS_PAGE_SIZE} products, from 1, written in digits without leading zeros. A page past the last has no items. Absent: the first.`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE },
    example: 2,
  },
  MinPrice: {
    name: 'minPrice',
    in: 'query',
    description: `Keep the products priced at this many dollars or more: digits with an optional decimal part (\`12\`, \`9.99\`), at most ${MAX_FILTER_PRICE}. Negative, not a number, empty, above \`maxPrice\` or given twice is a \`400\`. Absent: no lower bound.`,
    schema: { type: 'number', minimum: 0, maximum: MAX_FILTER_PRICE },
    example: 10,
  },
  MaxPrice: {
    name: 'maxPrice',
    in: 'query',
    description: `Keep the products priced at this many dollars or less, written as \`minPrice\` is; not below \`minPrice\`. Absent: no upper bound.`,
    schema: { type: 'number', minimum: 0, maximum: MAX_FILTER_PRICE },
    example: 100,
  },
  MinRating: {
    name: 'minRating',
    in: 'query',
    description:
      'Keep the products rated at least this, a whole number from 1 to 4 (the filter’s “4★ & up”); a product without a rating counts as rated 4, the rate its card shows. Anything else is a `400`. Absent: every rating.',
    schema: { type: 'integer', enum: [...MIN_RATINGS].reverse() },
    example: 4,
  },
  CategoryName: {
    name: 'name',
    in: 'path',
    required: true,
    description:
      'The category’s exact name as `/products/categories` lists it (case, spaces and all), percent-encoded: `men%27s%20clothing`, `home%20%26%20garden%2Foutdoor%20%F0%9F%8F%95%EF%B8%8F`. An unknown name has no products (`[]`).',
    schema: { type: 'string' },
    example: 'jewelery',
  },
  ImageWidth: {
    name: 'w',
    in: 'query',
    description:
      'Resize to this width in CSS pixels, one of the listed widths written exactly so (`0320` or `321` is a `400`, as is `w` given twice), never wider than the photo itself. Absent: the original bytes.',
    schema: { type: 'integer', enum: [...IMAGE_WIDTHS] },
    example: 320,
  },
};
