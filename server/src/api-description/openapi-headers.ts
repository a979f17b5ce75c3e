// The OpenAPI document's shared headers (openapi/openapi-document.ts; a slice's own, such as an image's lifetime, are
// written with its operation): each written once, and the set each kind of answer
// sends listed once, shared by the operations that send it.
import type { HeaderObject } from 'openapi3-ts/oas31';
import { ALLOWED_METHODS, API_ALLOW, EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_SECONDS } from '../http/cors.js';
import { ref } from './openapi-ref.js';

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
  RequestId: {
    description:
      'The id of the request in the server’s log line about it: the request’s own `X-Request-Id` when it is a plain token (letters, digits, `_`, `.`, `:`, `-`, at most 128), else a new UUID.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,128}$' },
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

/** An answer to a request the server could not read: sent before CORS or the rate limit, which need a request. */
export const UNREADABLE_REQUEST_HEADERS = {
  'Cache-Control': ref('headers', 'CacheControlNoStore'),
  'X-Request-Id': ref('headers', 'RequestId'),
};
