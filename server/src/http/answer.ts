import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { BodyBytes, EncodedBody } from '../bodies/encoded-body.js';
import type { Config } from '../config.js';
import type { CacheStatus } from '../outcomes/cache-status.js';
import type { BodyEncoding } from './accept-encoding.js';
import { securityHeaders } from './security-headers.js';

declare module '../bodies/encoded-body.js' {
  interface EncodedBody {
    /**
     * What prepareAnswer works out once for these bytes (their ETags, their heads), made on their first answer and
     * kept with them, so that they go when the catalogue drops the body. Nothing else reads or writes it.
     */
    heads?: BodyHeads;
  }
}

/** One cache entry as it stands at this moment: what any cacheable route hands over to be answered. */
export interface Answer {
  body: EncodedBody;
  /** e.g. `application/json; charset=utf-8`. */
  contentType: string;
  /** The `Vary` header, when the entry depends on more than Accept-Encoding (e.g. `Accept, Accept-Encoding`). Default: `Accept-Encoding`. */
  vary?: string;
  cacheStatus: CacheStatus;
  /** Whole seconds since the entry was stored. */
  ageSeconds: number;
  /** Whole seconds of freshness left; 0 once stale. */
  freshForSeconds: number;
  /** Replaces the Cache-Control worked out from the freshness (images keep their own lifetime: docs/api.md, "Product images"). */
  cacheControl?: string;
  /** Replaces the site's Content-Security-Policy (an image opened on its own gets a sandbox). */
  contentSecurityPolicy?: string;
  /**
   * The exact moments behind `ageSeconds` and `freshForSeconds`, for an answer the response cache may keep and send
   * itself until it is no longer fresh (response-cache.ts); absent for one no cache keeps (a search page's HTML).
   */
  freshness?: Freshness;
  /**
   * For a body read from files someone owns (a large whole list: catalogue/list/catalogue-list.ts): called once when the
   * answer's response has ended, however it ended. No cache keeps such an answer (response-cache.ts).
   */
  release?: () => void;
}

/** When an entry was stored and when it stops being fresh, in milliseconds since the epoch. */
export interface Freshness {
  readonly storedAt: number;
  readonly freshUntil: number;
}

/** How long shared caches (a CDN, a reverse proxy) may go on serving a copy past its freshness. */
export interface HttpCachingPolicy {
  /** While they fetch a new one. */
  readonly staleWhileRevalidateSeconds: number;
  /** While this server fails. */
  readonly staleIfErrorSeconds: number;
  /** The `Cache-Control` of an answer fresh for `freshForSeconds` more. */
  cacheControl(freshForSeconds: number): string;
}

/** The policy the configuration sets: shared caches may keep serving a copy as long as this server would (docs/api.md, "Caching"). */
export function httpCachingPolicy(config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds'>): HttpCachingPolicy {
  const staleWhileRevalidateSeconds = config.cacheTtlSeconds;
  const staleIfErrorSeconds = config.staleMaxSeconds;
  // The last value made: every request of the same second asks for the same one, and a cache hit makes no string.
  let last = { freshForSeconds: -1, value: '' };
  return {
    staleWhileRevalidateSeconds,
    staleIfErrorSeconds,
    cacheControl(freshForSeconds) {
      if (last.freshForSeconds !== freshForSeconds) {
        const value = `public, max-age=${freshForSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}, stale-if-error=${staleIfErrorSeconds}`;
        last = { freshForSeconds, value };
      }
      return last.value;
    },
  };
}

/** The values of the two headers a rate-limited answer carries: `RateLimit` and `RateLimit-Policy`. */
export interface RateLimitHeaders {
  header: string;
  policyHeader: string;
}

/** The CORS headers of one `/api` answer, worked out from the request's `Origin`. */
export interface CorsHeaders {
  /** `[name, value, name, value, …]`, as prepareAnswer writes them. */
  headers: readonly string[];
  /** The answer depends on `Origin` (CORS_ORIGINS is a list): `Origin` joins the answer's `Vary`. */
  varyOrigin: boolean;
  /**
   * Replaces the site's `Cross-Origin-Resource-Policy: same-origin` (security-headers.ts): `cross-origin` with
   * `*`, so a page anywhere may show a product image with a plain `<img>` (a no-cors request, which CORS does not
   * cover and this header would otherwise block). With a list it stays: a listed origin asks with
   * `<img crossorigin>`, a CORS request. Undefined: unchanged.
   */
  resourcePolicy: 'cross-origin' | undefined;
}

/**
 * The headers of one request's answer that middleware works out before any route runs — its id, its rate limit,
 * its CORS — computed once per request into this value (request-context.ts on the Express path, the response cache
 * in front), never set on the response: the one writer below writes them with everything else.
 */
export interface RequestHeaders {
  requestId: string;
  /** The API's rate-limit headers for this request; undefined where no limit applies. */
  rateLimit: RateLimitHeaders | undefined;
  /** The CORS headers for this request's Origin (cors.ts) on `/api`; undefined elsewhere. */
  cors: CorsHeaders | undefined;
}

/** What of the request a cached answer depends on, worked out by the caller. */
export interface AnswerRequest extends RequestHeaders {
  /** The encoding the client prefers among those prepared (accept-encoding.ts). */
  encoding: BodyEncoding;
  ifNoneMatch: string | undefined;
}

/** A cached answer ready to write: `headers` is `[name, value, name, value, …]`, the form `res.writeHead` takes. */
export interface PreparedAnswer {
  status: 200 | 304;
  headers: string[];
  body: BodyBytes | undefined;
}

/**
 * The headers every answer opens with, in this order: `X-Request-Id`, the security headers (with an answer's own
 * CSP, and the resource policy CORS asks for), `RateLimit`/`RateLimit-Policy`, the CORS headers. prepareAnswer
 * starts a cached answer's head with them, and request-context.ts adds them to Express's own answers (errors, static
 * files, the metrics): one list for both.
 */
export function requestHead(request: RequestHeaders, contentSecurityPolicy: string | undefined): string[] {
  const { rateLimit, cors } = request;
  const head = ['X-Request-Id', request.requestId].concat(securityHeaders(contentSecurityPolicy, cors?.resourcePolicy));
  if (rateLimit !== undefined) head.push('RateLimit', rateLimit.header, 'RateLimit-Policy', rateLimit.policyHeader);
  return cors === undefined || cors.headers.length === 0 ? head : head.concat(cors.headers);
}

/**
 * A cached answer's whole head for one body and encoding, as sent to requests of one shape (the same CORS
 * headers, rate limit policy, CSP, freshness rule, cache status), made once per body (a cache fill) rather than
 * per request. A request copies it with one `slice` and writes the few values of its own into their places:
 * its id, its `RateLimit`, `Cache-Control`'s max-age and `Age`. The 304's head is the same but the content headers.
 */
interface HeadTemplate {
  contentType: string;
  vary: string | undefined;
  cacheStatus: CacheStatus;
  cacheControl: string | undefined;
  contentSecurityPolicy: string | undefined;
  cors: CorsHeaders | undefined;
  rateLimitPolicy: string | undefined;
  headers: readonly string[];
  /** Where the 304's head ends: before the content headers. */
  notModifiedLength: number;
  /** Indexes of the per-request values in `headers`; -1 where the template holds the value (its own Cache-Control) or none. */
  rateLimitAt: number;
  cacheControlAt: number;
  ageAt: number;
}

export interface BodyHeads {
  /** The identity, gzip and br ETags, for If-None-Match. */
  tags: readonly string[];
  /** By encoding sent; a handful of shapes each, found by a short scan. */
  templates: Record<BodyEncoding, HeadTemplate[]>;
}

/** A body is answered to a few request shapes (CORS for any origin or a listed one, a 304, a HEAD): more is waste. */
const MAX_TEMPLATES_PER_ENCODING = 16;

function bodyHeadsOf(body: EncodedBody): BodyHeads {
  return (body.heads ??= {
    tags: [body.etag, variantTag(body.etag, 'gzip'), variantTag(body.etag, 'br')],
    templates: { identity: [], gzip: [], br: [] },
  });
}

function templateFor(heads: BodyHeads, answer: Answer, request: AnswerRequest, encoding: BodyEncoding): HeadTemplate {
  const templates = heads.templates[encoding];
  const rateLimitPolicy = request.rateLimit?.policyHeader;
  for (const template of templates) {
    if (
      template.cors === request.cors &&
      template.rateLimitPolicy === rateLimitPolicy &&
      template.cacheStatus === answer.cacheStatus &&
      template.contentType === answer.contentType &&
      template.vary === answer.vary &&
      template.cacheControl === answer.cacheControl &&
      template.contentSecurityPolicy === answer.contentSecurityPolicy
    )
      return template;
  }
  const template = makeTemplate(answer, request, encoding);
  if (templates.length >= MAX_TEMPLATES_PER_ENCODING) templates.shift();
  templates.push(template);
  return template;
}

function makeTemplate(answer: Answer, request: AnswerRequest, encoding: BodyEncoding): HeadTemplate {
  const { body } = answer;
  const headers = requestHead(request, answer.contentSecurityPolicy);
  const rateLimitAt = request.rateLimit === undefined ? -1 : headers.indexOf('RateLimit') + 1;
  const vary = answer.vary ?? 'Accept-Encoding';
  headers.push('ETag', variantTag(body.etag, encoding), 'Cache-Control', answer.cacheControl ?? '');
  const cacheControlAt = answer.cacheControl === undefined ? headers.length - 1 : -1;
  headers.push('Age', '');
  const ageAt = headers.length - 1;
  headers.push('X-Cache', answer.cacheStatus, 'Vary', request.cors?.varyOrigin ? `${vary}, Origin` : vary);
  const notModifiedLength = headers.length;
  const bytes = body[encoding] ?? body.identity;
  headers.push('Content-Type', answer.contentType, 'Content-Length', String(bytes.length));
  if (encoding !== 'identity') headers.push('Content-Encoding', encoding);
  return {
    contentType: answer.contentType,
    vary: answer.vary,
    cacheStatus: answer.cacheStatus,
    cacheControl: answer.cacheControl,
    contentSecurityPolicy: answer.contentSecurityPolicy,
    cors: request.cors,
    rateLimitPolicy: request.rateLimit?.policyHeader,
    headers,
    notModifiedLength,
    rateLimitAt,
    cacheControlAt,
    ageAt,
  };
}

/**
 * The status, every header and the body of a cached answer, for this request at this moment: the one rule for
 * both paths that send cached answers (the response cache in front of Express, and the Express routes), so they
 * cannot drift. Same inputs, same answer: what it keeps between calls is derived from its inputs and kept by
 * the value it belongs to (a body's heads on the body, the last Cache-Control on the policy), never in a map here.
 *
 * Headers, in this order: requestHead's (id, security, rate limit, CORS), `ETag`, `Cache-Control`, `Age`,
 * `X-Cache`, `Vary`, then the content headers (HeadTemplate: all but four values are worked out once per body).
 *
 * Each encoding has its own strong ETag (`"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`): a strong validator names
 * one exact byte sequence, and the bodies differ. `If-None-Match` matches any of them (they carry the same
 * content), and gets a 304 with the same headers but the content ones.
 *
 * The signature is the HTTP layer's contract with every slice: any answer with a validator (JSON, a page, a
 * photo or its variant) is sent through it, by sendCachedAnswer (send-answer.ts) on the Express path or by the
 * response cache in front.
 */
export function prepareAnswer(answer: Answer, request: AnswerRequest, policy: HttpCachingPolicy): PreparedAnswer {
  const { body } = answer;
  const encoding = body[request.encoding] === undefined ? 'identity' : request.encoding;
  const heads = bodyHeadsOf(body);
  const template = templateFor(heads, answer, request, encoding);
  const notModified = request.ifNoneMatch !== undefined && matchesAny(request.ifNoneMatch, heads.tags);
  const headers = notModified ? template.headers.slice(0, template.notModifiedLength) : template.headers.slice();
  headers[1] = request.requestId;
  if (template.rateLimitAt !== -1) headers[template.rateLimitAt] = request.rateLimit!.header;
  if (template.cacheControlAt !== -1) headers[template.cacheControlAt] = policy.cacheControl(answer.freshForSeconds);
  headers[template.ageAt] = String(answer.ageSeconds);
  return notModified ? { status: 304, headers, body: undefined } : { status: 200, headers, body: body[encoding] ?? body.identity };
}

/**
 * Writes a prepared answer whole: its status and every header with one `writeHead`, then its body. Nothing else
 * sets headers on a response that gets a prepared answer (middleware computes into RequestHeaders instead), so
 * these are exactly the answer's headers, on either path.
 */
export function writeAnswer(res: ServerResponse, { status, headers, body }: PreparedAnswer): void {
  res.writeHead(status, headers);
  if (body === undefined || Buffer.isBuffer(body)) return void res.end(body);
  if (res.req.method === 'HEAD') return void res.end();
  // The files' owner is held until the response ends (Answer's `release`). A read that fails cuts the answer short,
  // as a broken upstream connection would: the client sees a body shorter than its Content-Length.
  const file = createReadStream(body.path);
  file.once('error', (error) => res.destroy(error));
  file.pipe(res);
}

function variantTag(etag: string, encoding: BodyEncoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

function matchesAny(ifNoneMatch: string, tags: readonly string[]): boolean {
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tags.includes(tag));
}
