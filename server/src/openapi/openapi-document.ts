import { STATUS_CODES } from 'node:http';
import { IMAGE_WIDTHS } from '@catalogue/shared/image-widths';
import { MESSAGES } from '@catalogue/shared/messages';
import { MAX_PAGE, PRODUCTS_PAGE_SIZE, type ProductSearchPage } from '@catalogue/shared/product-paging';
import { SORT_OPTIONS } from '@catalogue/shared/sort';
import { apiErrorSchema, categoryNamesSchema, type Product, publicProductSchema, ratingSchema } from '@catalogue/shared/product';
import type {
  ComponentsObject,
  HeaderObject,
  InfoObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  PathsObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  ServerObject,
} from 'openapi3-ts/oas31';
import { z } from 'zod';
import { ALLOWED_METHODS, API_ALLOW, EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../http/cors.js';
import { IMAGE_CACHE_CONTROL } from '../images/image-headers.js';
import { IMAGE_ROUTE } from '../images/image-route.js';
import { API_BASE, openApiPath } from '../http/api-route.js';
import { OPENAPI_ROUTES } from './openapi-routes.js';
import { MALFORMED_ESCAPE } from '../http/errors.js';
import { LIST_OPTIONS_ERRORS, MAX_LIST_LIMIT } from '../products/list-options.js';
import { MAX_SEARCH_CHARS, PRODUCTS_QUERY_ERRORS } from '@catalogue/shared/product-paging';
import { MISSING_CATEGORY_NAME, PRODUCTS_ROUTES } from '../products/products-routes.js';
import { MAX_API_URL_LENGTH } from '../http/uri-too-long.js';

/**
 * The OpenAPI 3.1 document of `/api` (docs/api.md), served at `/api/openapi.json` and rendered at
 * `/api/docs`. Its schemas come from the zod schemas the server validates with (shared/src/product.ts, through
 * `z.toJSONSchema`); the rest is written by hand from the routes: openapi-document.test.ts holds it to the routes
 * the app really has, openapi-contract.test.ts holds real answers to it, and `npm run lint` runs Redocly and
 * Spectral over it (scripts/lint-openapi.mjs).
 */

/**
 * The document's type: OpenAPI 3.1 as openapi3-ts types it, with the parts this document always has made
 * required, so readers (the reference page, the tests) need not test for them.
 */
export type ApiDocument = OpenAPIObject & {
  // Two fields OpenAPI 3.1 added that openapi3-ts's oas31 types lack (its oas32 ones have them).
  jsonSchemaDialect?: string;
  info: InfoObject & { summary?: string };
  servers: ServerObject[];
  paths: PathsObject;
  /** Each component written out in full: none is itself a `$ref`. */
  components: ComponentsObject & {
    schemas: Record<string, SchemaObject>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, HeaderObject>;
    responses: Record<string, ResponseObject>;
  };
};

/** The methods an OpenAPI path item can document; the API's routes answer GET (and HEAD with it). */
export const HTTP_METHODS = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
] as const satisfies readonly (keyof PathItemObject)[];
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** How long clients may keep the document and its page: it changes only with a deploy, and revalidating is a 304. */
export const OPENAPI_CACHE_CONTROL = 'public, max-age=300';

/**
 * The version of the API this document describes (`info.version`), not of the software: raised when a route,
 * parameter, status or schema changes. A constant, so the document is the same wherever the module is loaded
 * (the server, and the client's tests, which start the real server in a browser-like environment).
 */
const API_VERSION = '1.0.0';

const ref = (section: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): ReferenceObject => ({
  $ref: `#/components/${section}/${name}`,
});

const FAKE_STORE = 'https://fakestoreapi.com';

// ---------------------------------------------------------------------------------------------------------------
// Examples, in the shapes of the fixture catalogue the tests serve: one product with a rating, one without.

const EXAMPLE_PRODUCT: Product = {
  id: 1,
  title: 'Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops',
  price: 109.95,
  description: 'Your perfect pack for everyday use and walks in the forest. Stash your laptop (up to 15 inches) in the padded sleeve.',
  category: "men's clothing",
  image: '/api/products/1/image',
  rating: { rate: 3.9, count: 120 },
};

const EXAMPLE_PRODUCT_WITHOUT_RATING: Product = {
  id: 5,
  title: "John Hardy Women's Legends Naga Gold & Silver Dragon Station Chain Bracelet",
  price: 695,
  description: 'From our Legends Collection, the Naga was inspired by the mythical water dragon that protects the ocean.',
  category: 'jewelery',
  image: '/api/products/5/image',
};

const EXAMPLE_CATEGORIES = ["men's clothing", 'jewelery', 'electronics', "women's clothing", 'home & garden/outdoor 🏕️'];

// ---------------------------------------------------------------------------------------------------------------
// Schemas: the zod schemas the server validates with, as JSON Schema 2020-12 (OpenAPI 3.1's dialect).

/**
 * What `/openapi.json` answers, described far enough for a client generator to type it (a bare `{type: object}`
 * would come out as an object with no fields): an OpenAPI 3.1 document, its fields beyond these left open.
 */
const openApiDocumentSchema = z
  .looseObject({
    openapi: z.string().regex(/^3\.1\.[0-9]+$/),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    servers: z.array(z.looseObject({ url: z.string() })),
    paths: z.record(z.string(), z.looseObject({})),
    components: z.looseObject({}),
  })
  .meta({ description: 'An OpenAPI 3.1 document: this one.' });

/** The schemas, each named by its id in `components.schemas`; a schema used inside another becomes a `$ref`. */
const schemaRegistry = z.registry<{ id: string }>();
const documentedProduct = publicProductSchema.meta({ examples: [EXAMPLE_PRODUCT, EXAMPLE_PRODUCT_WITHOUT_RATING] });
schemaRegistry.add(documentedProduct, { id: 'Product' });
schemaRegistry.add(ratingSchema, { id: 'Rating' });
schemaRegistry.add(z.array(documentedProduct), { id: 'Products' });
/** What `/products/search` answers (shared/src/product-paging.ts), tied to its type. */
const searchPageSchema = z.object({
  items: z.array(documentedProduct).describe(`The products of this page, at most \`pageSize\`, in the order asked for.`),
  total: z.int().nonnegative().describe('How many products match in all, over every page.'),
  page: z.int().min(1).describe('This page, from 1.'),
  pageSize: z.literal(PRODUCTS_PAGE_SIZE).describe('Products per page.'),
  catalogueSize: z.int().nonnegative().describe('How many products the whole catalogue holds.'),
}) satisfies z.ZodType<ProductSearchPage>;
schemaRegistry.add(searchPageSchema, { id: 'ProductSearchPage' });
schemaRegistry.add(categoryNamesSchema.meta({ examples: [EXAMPLE_CATEGORIES] }), { id: 'Categories' });
schemaRegistry.add(apiErrorSchema.meta({ examples: [{ error: MESSAGES.productNotFound }] }), { id: 'Error' });
schemaRegistry.add(openApiDocumentSchema, { id: 'OpenApiDocument' });

/**
 * `z.toJSONSchema` writes each as a document of its own (`$schema`, and an `$id` naming where it will sit); as a
 * component it is neither: the document's `jsonSchemaDialect` names the dialect.
 */
const SCHEMAS: Record<string, SchemaObject> = Object.fromEntries(
  Object.entries(z.toJSONSchema(schemaRegistry, { uri: (id) => `#/components/schemas/${id}` }).schemas).map(
    ([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema as SchemaObject],
  ),
);

// ---------------------------------------------------------------------------------------------------------------
// Headers. Each answer's set is listed once below and shared by the operations that send it.

const HEADERS: Record<string, HeaderObject> = {
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
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': ref('headers', 'AccessControlAllowOrigin'),
  'Access-Control-Expose-Headers': ref('headers', 'AccessControlExposeHeaders'),
};

const RATE_LIMIT_HEADERS = {
  RateLimit: ref('headers', 'RateLimit'),
  'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
  ...CORS_HEADERS,
};

/** A cached catalogue answer (the list, a product, a view of the list): docs/api.md, "Caching". */
const CATALOGUE_HEADERS = {
  ETag: ref('headers', 'ETag'),
  'Cache-Control': ref('headers', 'CacheControlCatalogue'),
  Age: ref('headers', 'Age'),
  'X-Cache': ref('headers', 'XCache'),
  Vary: ref('headers', 'Vary'),
  ...RATE_LIMIT_HEADERS,
};

const ERROR_HEADERS = { 'Cache-Control': ref('headers', 'CacheControlNoStore'), ...RATE_LIMIT_HEADERS };

// ---------------------------------------------------------------------------------------------------------------
// Responses.

const JSON_TYPE = 'application/json';

function errorResponse(description: string, messages: string[], headers: ResponseObject['headers'] = ERROR_HEADERS): ResponseObject {
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

const RESPONSES: Record<string, ResponseObject> = {
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
const ANY_REQUEST_RESPONSES = { '414': ref('responses', 'UriTooLong'), '429': ref('responses', 'TooManyRequests') };

/** The answers of an operation computed from the cached product list. */
const LIST_FAILURE_RESPONSES = {
  '502': ref('responses', 'CatalogueUnavailable'),
  '504': ref('responses', 'CatalogueTimeout'),
};

function listResponse(description: string): ResponseObject {
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

const INVALID_QUERY_MESSAGES = Object.values(LIST_OPTIONS_ERRORS);

// ---------------------------------------------------------------------------------------------------------------
// Parameters.

const PARAMETERS: Record<string, ParameterObject> = {
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

// ---------------------------------------------------------------------------------------------------------------
// Operations.

const PRODUCT_TAG = 'Products';
const CATEGORY_TAG = 'Categories';
const ABOUT_TAG = 'About this API';

const listProducts: OperationObject = {
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

const getProduct: OperationObject = {
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

const getProductImage: OperationObject = {
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

const searchProducts: OperationObject = {
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

const listCategories: OperationObject = {
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

const listProductsInCategory: OperationObject = {
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

const categoryNameMissing: OperationObject = {
  operationId: 'categoryNameMissing',
  summary: 'No category named',
  description: 'Without a name this path names no category; it says so rather than read `category` as a product id.',
  tags: [CATEGORY_TAG],
  responses: {
    '400': errorResponse('Always: a name is needed.', [MISSING_CATEGORY_NAME]),
    ...ANY_REQUEST_RESPONSES,
  },
};

const DOCUMENT_HEADERS = {
  ETag: ref('headers', 'ETag'),
  'Cache-Control': ref('headers', 'CacheControlDocument'),
  Vary: ref('headers', 'Vary'),
  ...RATE_LIMIT_HEADERS,
};

const DOCUMENT_NOT_MODIFIED: ResponseObject = { description: 'The `If-None-Match` named the current body.', headers: DOCUMENT_HEADERS };

const getOpenApiDocument: OperationObject = {
  operationId: 'getOpenApiDocument',
  summary: 'This document',
  description: 'The OpenAPI 3.1 document of `/api`, built once at start-up.',
  tags: [ABOUT_TAG],
  responses: {
    '200': {
      description: 'The document.',
      headers: DOCUMENT_HEADERS,
      content: { [JSON_TYPE]: { schema: ref('schemas', 'OpenApiDocument') } },
    },
    '304': DOCUMENT_NOT_MODIFIED,
    ...ANY_REQUEST_RESPONSES,
  },
};

const getReferencePage: OperationObject = {
  operationId: 'getReferencePage',
  summary: 'This document as a web page',
  description: 'The reference page rendered from this document on the server: plain HTML, no script.',
  tags: [ABOUT_TAG],
  responses: {
    '200': { description: 'The page.', headers: DOCUMENT_HEADERS, content: { 'text/html': { schema: { type: 'string' } } } },
    '304': DOCUMENT_NOT_MODIFIED,
    ...ANY_REQUEST_RESPONSES,
  },
};

// ---------------------------------------------------------------------------------------------------------------

const DESCRIPTION = `The read-only JSON API of the product catalogue: a caching proxy in front of a [Fake Store API](${FAKE_STORE})-shaped upstream, with the same read routes and the same product shape. A program written for the Fake Store API works against \`{this origin}/api\` by changing only its base URL.

Every \`GET\` also answers \`HEAD\` (the same status and headers, no body). Errors are JSON \`{"error": "<message>"}\`, sent \`no-store\`, never with a stack trace or a path; a path no route takes is \`404 {"error":"Not found"}\`, and request headers over 16 KiB are refused with \`431\` before any route sees them.

## Other methods, CORS

Every path answers \`OPTIONS\` with \`204\` (the \`Options\` response among the shared responses, \`components.responses\`) and any other method it does not document with \`405 {"error":"${MESSAGES.methodNotAllowed}"}\` and \`Allow: ${API_ALLOW}\` (the \`MethodNotAllowed\` response). Every answer, errors included, carries the CORS headers: by default \`Access-Control-Allow-Origin: *\`, so a browser app on any origin can read the catalogue; \`CORS_ORIGINS\` can name the origins instead. Credentials are never allowed.

## Caching

Answers come from this server's cache of the upstream: **fresh** for \`CACHE_TTL_SECONDS\` (\`X-Cache: HIT\`, the upstream not asked), then **stale** (\`X-Cache: STALE\`, \`max-age=0\`) but still served at once while one background refresh runs, and kept through upstream failures for \`STALE_MAX_SECONDS\` more. Each answer carries a strong \`ETag\` per encoding (\`304\` on \`If-None-Match\`), \`Cache-Control\`, \`Age\` and \`X-Cache\`; bodies are sent gzip- or brotli-compressed when \`Accept-Encoding\` allows. The categories and the limited, sorted or per-category lists are computed from the cached list, with its headers, and never call the upstream themselves.

## Differences from the Fake Store API

Where the two differ, on purpose:

- **An unknown product id is \`404 {"error":"Product not found"}\`**, not \`200\` with \`null\` or an empty body.
- **An id that is not digits is \`400 {"error":"Invalid Product ID"}\`** at once, without asking the upstream (the Fake Store leaves such a request hanging).
- **A bad \`limit\` or \`sort\` is \`400\`**, naming the parameter: a \`limit\` that is not a whole number from 1 to ${MAX_LIST_LIMIT}, a \`sort\` other than \`asc\`/\`desc\`, an empty or repeated one (the Fake Store ignores a bad or \`0\` limit and sorts ascending for any \`sort\` but \`desc\`). Unknown parameters are ignored, as there.
- **Without \`sort\` the list is in the upstream's order** (the Fake Store always orders by id; its own data is in id order, so the two agree there).
- **\`/products/categories\` lists names in the order the catalogue first uses them**; the Fake Store's are in its database's order (alphabetical for its four).
- **\`/products/category\` without a name is \`400\`**.
- **Read-only**: \`POST\`, \`PUT\`, \`PATCH\` and \`DELETE\` are \`405\` with \`Allow: ${API_ALLOW}\` (the Fake Store answers them with a made-up success and changes nothing), and there are no \`/users\`, \`/carts\` or \`/auth\` (\`404\`).
- **\`image\` is rewritten** to \`/api/products/{id}/image\` on this origin, which fetches the upstream's image (never a URL a client gives) and resizes it with \`?w=\`.
- **\`rating\` is passed on as the upstream sends it**, so it may be missing; a product of the wrong shape is dropped from lists, and unknown fields are dropped.
- **Upstream failures are \`502\`, timeouts \`504\`**, each a JSON error, unless a copy is cached; answers may be up to \`CACHE_TTL_SECONDS\` behind the upstream (longer while it fails).
- **What a proxy adds**: \`ETag\`/\`304\`, gzip and brotli, \`Cache-Control\`, \`Age\`, \`X-Cache\`, a rate limit (\`RATE_LIMIT_PER_MINUTE\` per client address per minute, \`429\` with \`Retry-After\`), \`414\` for URLs over ${MAX_API_URL_LENGTH.toLocaleString('en')} characters, and CORS as above.
`;

/** The document. Plain data: served as JSON and rendered as the reference page, both once at start-up. */
export const OPENAPI_DOCUMENT: ApiDocument = {
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
  info: {
    title: 'Product catalogue API',
    version: API_VERSION,
    summary: 'The product catalogue, read-only, in the Fake Store API’s shape.',
    description: DESCRIPTION,
  },
  // A public, read-only API: no operation asks for credentials (an empty list says so, where none would leave it unsaid).
  security: [],
  servers: [{ url: API_BASE, description: 'This origin: a Fake Store client changes only its base URL to `{origin}/api`.' }],
  tags: [
    { name: PRODUCT_TAG, description: 'The catalogue’s products and their images.' },
    { name: CATEGORY_TAG, description: 'The products grouped by their `category`.' },
    { name: ABOUT_TAG, description: 'This document, as JSON and as a web page.' },
  ],
  // Each path from its route's one declaration (http/api-route.ts), as Express mounts it.
  paths: {
    [openApiPath(PRODUCTS_ROUTES.list)]: { get: listProducts },
    [openApiPath(PRODUCTS_ROUTES.search)]: { get: searchProducts },
    [openApiPath(PRODUCTS_ROUTES.product)]: { get: getProduct },
    [openApiPath(IMAGE_ROUTE)]: { get: getProductImage },
    [openApiPath(PRODUCTS_ROUTES.categories)]: { get: listCategories },
    [openApiPath(PRODUCTS_ROUTES.category)]: { get: listProductsInCategory },
    [openApiPath(PRODUCTS_ROUTES.categoryMissing)]: { get: categoryNameMissing },
    [openApiPath(OPENAPI_ROUTES.document)]: { get: getOpenApiDocument },
    [openApiPath(OPENAPI_ROUTES.referencePage)]: { get: getReferencePage },
  },
  components: {
    schemas: SCHEMAS,
    parameters: PARAMETERS,
    headers: HEADERS,
    responses: RESPONSES,
  },
};
