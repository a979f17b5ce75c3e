import { MESSAGES } from '@catalogue/shared/messages';
import type {
  ComponentsObject,
  HeaderObject,
  InfoObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  PathItemObject,
  PathsObject,
  ResponseObject,
  SchemaObject,
  ServerObject,
} from 'openapi3-ts/oas31';
import { API_ALLOW } from '../http/cors.js';
import { IMAGE_HEADER_COMPONENTS } from '../images/image-operation.js';
import { IMAGE_ROUTE } from '../images/image-route.js';
import { API_BASE, openApiPath, type Route } from '../http/cached-route.js';
import { OPENAPI_CACHE_CONTROL, OPENAPI_ROUTES } from './openapi-routes.js';
import { FAKE_STORE_DIFFERENCES } from './fake-store-differences.js';
import { LIST_PARAMETERS } from '../products/products-operations.js';
import { CATEGORY_NAME_MISSING_ROUTE, PRODUCTS_ROUTES } from '../products/products-routes.js';
import {
  ANY_REQUEST_RESPONSES,
  CATEGORY_TAG,
  JSON_TYPE,
  PARAMETERS,
  PRODUCT_TAG,
  RESPONSES,
} from '../api-description/openapi-components.js';
import { HEADERS, RATE_LIMIT_HEADERS } from '../api-description/openapi-headers.js';
import { ref } from '../api-description/openapi-ref.js';
import { SCHEMAS } from '../api-description/openapi-schemas.js';

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

/**
 * The version of the API this document describes (`info.version`), not of the software: raised when a route,
 * parameter, status or schema changes. A constant, so the document is the same wherever the module is loaded
 * (the server, and the client's tests, which start the real server in a browser-like environment).
 */
const API_VERSION = '1.0.0';

const FAKE_STORE = 'https://fakestoreapi.com';

const ABOUT_TAG = 'About this API';

/** The document's own lifetime, among the shared headers. */
const DOCUMENT_HEADER_COMPONENTS: Record<string, HeaderObject> = {
  CacheControlDocument: {
    description: 'The document changes only with a deploy: kept five minutes, then revalidated by its `ETag`.',
    required: true,
    schema: { type: 'string', const: OPENAPI_CACHE_CONTROL },
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

Every \`GET\` also answers \`HEAD\` (the same status and headers, no body). Errors are JSON \`{"error": "<message>"}\`, sent \`no-store\`, never with a stack trace or a path; a path no route takes is \`404 {"error":"Not found"}\` (the \`NoSuchPath\` response among the shared responses, \`components.responses\`).

## Requests the server cannot read

Before any route, CORS or the rate limit sees a request, the server refuses what it cannot read as one, with JSON, \`no-store\` and an \`X-Request-Id\` where the connection still allows an answer, then closes the connection: bytes that are not well-formed HTTP and a \`Host\` header missing or given twice (\`400\`, the \`MalformedRequest\` response), headers that do not arrive within the header time limit or a request within the request time limit (\`408\`, \`RequestTimeout\`), and request headers over 16 KiB (\`431\`, \`RequestHeadersTooLarge\`). These can answer any path and method.

## Other methods, CORS

Every path answers \`OPTIONS\` with \`204\` (the \`Options\` response among the shared responses, \`components.responses\`) and any other method it does not document with \`405 {"error":"${MESSAGES.methodNotAllowed}"}\` and \`Allow: ${API_ALLOW}\` (the \`MethodNotAllowed\` response). Every answer, errors included, carries the CORS headers (but those to requests the server cannot read, below, which come before it knows a path or an origin): by default \`Access-Control-Allow-Origin: *\`, so a browser app on any origin can read the catalogue; \`CORS_ORIGINS\` can name the origins instead. Credentials are never allowed.

## Caching

Answers come from this server's cache of the upstream: **fresh** for \`CACHE_TTL_SECONDS\` (\`X-Cache: HIT\`, the upstream not asked), then **stale** (\`X-Cache: STALE\`, \`max-age=0\`) but still served at once while one background refresh runs, and kept through upstream failures for \`STALE_MAX_SECONDS\` more. Each answer carries a strong \`ETag\` per encoding (\`304\` on \`If-None-Match\`), \`Cache-Control\`, \`Age\` and \`X-Cache\`; bodies are sent gzip- or brotli-compressed when \`Accept-Encoding\` allows. The categories and the limited, sorted or per-category lists are computed from the cached list, with its headers, and never call the upstream themselves.

## Differences from the Fake Store API

${FAKE_STORE_DIFFERENCES}`;

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
  // Each path and its operation from its route's one object (http/cached-route.ts).
  paths: Object.fromEntries(
    [
      ...Object.values(PRODUCTS_ROUTES),
      CATEGORY_NAME_MISSING_ROUTE,
      IMAGE_ROUTE,
      { ...OPENAPI_ROUTES.document, operation: getOpenApiDocument },
      { ...OPENAPI_ROUTES.referencePage, operation: getReferencePage },
    ].map((route: Route<unknown>) => [openApiPath(route), { get: route.operation }]),
  ),
  components: {
    schemas: SCHEMAS,
    parameters: { ...PARAMETERS, ...LIST_PARAMETERS },
    headers: { ...HEADERS, ...IMAGE_HEADER_COMPONENTS, ...DOCUMENT_HEADER_COMPONENTS },
    responses: RESPONSES,
  },
};
