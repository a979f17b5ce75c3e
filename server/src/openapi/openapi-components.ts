// The OpenAPI document's shared components (openapi-document.ts): its headers, responses and parameters, each
// written once and named by `$ref` from the operations that use them.
import { STATUS_CODES } from 'node:http';
import { IMAGE_WIDTHS } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { MAX_PAGE, PRODUCTS_PAGE_SIZE } from '@catalogue/shared/product-paging';
import { SORT_OPTIONS } from '@catalogue/shared/sort';
import type { HeaderObject, ParameterObject, ReferenceObject, ResponseObject } from 'openapi3-ts/oas31';
import { ALLOWED_METHODS, API_ALLOW, EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../http/cors.js';
import { IMAGE_CACHE_CONTROL } from '../images/image-headers.js';
import { LIST_OPTIONS_ERRORS, MAX_LIST_LIMIT } from '../products/list-options.js';
import { MAX_SEARCH_CHARS } from '@catalogue/shared/product-paging';
import { MAX_API_URL_LENGTH } from '../http/uri-too-long.js';
import { OPENAPI_CACHE_CONTROL } from './openapi-routes.js';
import { EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING } from './openapi-schemas.js';

export const ref = (section: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): ReferenceObject => ({
  $ref: `#/components/${section}/${name}`,
});

// ---------------------------------------------------------------------------------------------------------------
// Headers. Each answer's set is listed once below and shared by the operations that send it.

export const HEADERS: Record<string, HeaderObject> = {
  ETag: {
    description:
      'Strong validator of the body, one per encoding (`"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`). Send it back in `If-None-Match` to get a `304`; any of the three matches.',
    required: true,
    schema: { type: 'string', pattern: '^"[^"]+"$', examples: ['"2jmj7l5rSw0yVb_vlWAYkK_YBwk"'] },
  },
  CacheControlCatalogue: {
    description:
      'How long the answer is fresh: the time left before this server refreshes its copy from the upstream (`0` once stale), and how long a shared cache may go on serving it while refreshing or while this server fails (`CACHE_TTL_SECONDS` and `STALE_MAX_SECONDS`).',
    required: true,
    schema: {
      type: 'string',
      pattern: '^public, max-age=[0-9]+, stale-while-revalidate=[0-9]+, stale-if-error=[0-9]+$',
      examples: ['public, max-age=300, stale-while-revalidate=300, stale-if-error=86400'],
    },
  },
  ImageETag: {
    description:
      'A resized image’s strong validator, or the weak one (`W/"…"`) of the original bytes. Send it back in `If-None-Match` to get a `304`.',
    required: true,
    schema: { type: 'string', pattern: '^(W/)?"[^"]+"$' },
  },
  CacheControlImage: {
    description: 'Images are named by product and change only with it: kept for a day.',
    required: true,
    schema: { type: 'string', const: IMAGE_CACHE_CONTROL },
  },
  CacheControlDocument: {
    description: 'The document changes only with a deploy: kept five minutes, then revalidated by its `ETag`.',
    required: true,
    schema: { type: 'string', const: OPENAPI_CACHE_CONTROL },
  },
  CacheControlNoStore: {
    description: 'Errors are never cached, so no cache keeps a passing failure.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  Age: {
    description: 'Seconds since this server got the data from the upstream.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  XCache: {
    description:
      '`HIT`: a fresh copy, the upstream not asked; `MISS`: just fetched from the upstream; `STALE`: a copy past its freshness, served at once while one background refresh runs.',
    required: true,
    schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] },
  },
  Vary: {
    description:
      'The body is sent gzip- or brotli-compressed when `Accept-Encoding` allows; when `CORS_ORIGINS` lists origins, the CORS headers depend on `Origin` too.',
    required: true,
    schema: { type: 'string', pattern: '^Accept-Encoding(, Origin)?$' },
  },
  RateLimit: {
    description:
      'The client’s budget on `/api` (IETF RateLimit header fields): `r` requests remain in the current one-minute window, which resets in `t` seconds. Absent when `RATE_LIMIT_PER_MINUTE=0`.',
    schema: { type: 'string', pattern: '^"[0-9]+-in-1min"; r=[0-9]+; t=[0-9]+$', examples: ['"600-in-1min"; r=599; t=60'] },
  },
  RateLimitPolicy: {
    description:
      'The limit itself: `q` requests per client address (IPv6: per /56) per `w` seconds. Absent when `RATE_LIMIT_PER_MINUTE=0`.',
    schema: { type: 'string', pattern: '^"[0-9]+-in-1min"; q=[0-9]+; w=60$', examples: ['"600-in-1min"; q=600; w=60'] },
  },
  RetryAfter: {
    description: 'Seconds until the client’s window resets.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  Allow: {
    description: 'The methods every `/api` path answers.',
    required: true,
    schema: { type: 'string', const: API_ALLOW },
  },
  AccessControlAllowOrigin: {
    description:
      'Which origins’ scripts may read the answer: `*` (the default, `CORS_ORIGINS=*`), or the request’s `Origin` when `CORS_ORIGINS` lists it; absent for an origin it does not list. Never with credentials.',
    schema: { type: 'string', minLength: 1 },
  },
  AccessControlExposeHeaders: {
    description: 'The headers besides the basic ones a script on another origin may read. Sent with `Access-Control-Allow-Origin`.',
    schema: { type: 'string', const: EXPOSED_HEADERS },
  },
  AccessControlAllowMethods: {
    description: 'What a preflight allows. Sent with `Access-Control-Allow-Origin`.',
    schema: { type: 'string', const: ALLOWED_METHODS },
  },
  AccessControlMaxAge: {
    description: 'Seconds a browser may reuse the preflight’s answer. Sent with `Access-Control-Allow-Origin`.',
    schema: { type: 'integer', const: PREFLIGHT_MAX_AGE_SECONDS },
  },
};

/** Every `/api` answer, errors included, carries these (docs/api.md, "CORS"). */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': ref('headers', 'AccessControlExposeHeaders'),
};

export const RATE_LIMIT_HEADERS = {
  RateLimit: ref('headers', 'RateLimit'),
  'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
  ...CORS_HEADERS,
};

/** A cached catalogue answer (the list, a product, a view of the list): docs/api.md, "Caching". */
export const CATALOGUE_HEADERS = {
  ETag: ref('headers', 'ETag'),
  'Cache-Control': ref('headers', 'CacheControlCatalogue'),
  Age: ref('headers', 'Age'),
  'X-Cache': ref('headers', 'XCache'),
  Vary: ref('headers', 'Vary'),
  ...RATE_LIMIT_HEADERS,
};

export const ERROR_HEADERS = { 'Cache-Control': ref('headers', 'CacheControlNoStore'), ...RATE_LIMIT_HEADERS };

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

export const INVALID_QUERY_MESSAGES = Object.values(LIST_OPTIONS_ERRORS);

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
  SearchText: {
    name: 'q',
    in: 'query',
    description: `Keep the products whose title contains this text, ignoring case and the text's leading and trailing spaces. At most ${MAX_SEARCH_CHARS} characters. Absent or blank: every title.`,
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
