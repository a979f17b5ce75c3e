import type { ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { CorsHeaders } from './cors.js';
import type { RateLimitHeaders } from './rate-limit.js';
import { SECURITY_HEADERS } from './security-headers.js';
import type { BodyEncoding } from './accept-encoding.js';
import type { EncodedBody } from './encoded-body.js';

/** Where an answer came from: a fresh copy, a fill that just ran, or a copy past its freshness. */
export type CacheStatus = 'HIT' | 'MISS' | 'STALE';

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
}

/** How long shared caches (a CDN, a reverse proxy) may go on serving a copy past its freshness. */
export interface HttpCachingPolicy {
  /** While they fetch a new one. */
  staleWhileRevalidateSeconds: number;
  /** While this server fails. */
  staleIfErrorSeconds: number;
}

/** The policy the configuration sets: shared caches may keep serving a copy as long as this server would (docs/api.md, "Caching"). */
export function httpCachingPolicy(config: Pick<Config, 'cacheTtlSeconds' | 'staleMaxSeconds'>): HttpCachingPolicy {
  return { staleWhileRevalidateSeconds: config.cacheTtlSeconds, staleIfErrorSeconds: config.staleMaxSeconds };
}

/** What of the request a cached answer depends on, worked out by the caller. */
export interface AnswerRequest {
  /** The encoding the client prefers among those prepared (accept-encoding.ts). */
  encoding: BodyEncoding;
  ifNoneMatch: string | undefined;
  requestId: string;
  /** The API's rate-limit headers for this request; undefined where no limit applies. */
  rateLimit: RateLimitHeaders | undefined;
  /** The CORS headers for this request's Origin (cors.ts) on `/api`; undefined elsewhere. */
  cors: CorsHeaders | undefined;
}

/** A cached answer ready to write: `headers` is `[name, value, name, value, …]`, the form `res.writeHead` takes. */
export interface PreparedAnswer {
  status: 200 | 304;
  headers: string[];
  body: Buffer | undefined;
}

const SECURITY_HEADER_LIST = SECURITY_HEADERS.flat();
/** By CSP, then by resource policy. Both come from the code's constants (image-answer.ts, cors.ts): a few lists. */
const SECURITY_HEADER_LISTS = new Map<string | undefined, Map<string | undefined, readonly string[]>>();

/**
 * SECURITY_HEADERS with an answer's own CSP and a request's resource policy, each combination computed once:
 * every image variant carries its own CSP, and rebuilding the list took a cache hit microseconds (measured),
 * where looking it up takes well under one.
 */
function securityHeaders(contentSecurityPolicy: string | undefined, resourcePolicy: string | undefined): readonly string[] {
  if (contentSecurityPolicy === undefined && resourcePolicy === undefined) return SECURITY_HEADER_LIST;
  let byResourcePolicy = SECURITY_HEADER_LISTS.get(contentSecurityPolicy);
  if (byResourcePolicy === undefined)
    SECURITY_HEADER_LISTS.set(contentSecurityPolicy, (byResourcePolicy = new Map<string | undefined, readonly string[]>()));
  let list = byResourcePolicy.get(resourcePolicy);
  if (list === undefined) byResourcePolicy.set(resourcePolicy, (list = withOverrides(contentSecurityPolicy, resourcePolicy)));
  return list;
}

function withOverrides(contentSecurityPolicy: string | undefined, resourcePolicy: string | undefined): string[] {
  return SECURITY_HEADERS.flatMap(([name, value]) => [
    name,
    (name === 'Content-Security-Policy' ? contentSecurityPolicy : name === 'Cross-Origin-Resource-Policy' ? resourcePolicy : undefined) ??
      value,
  ]);
}

/**
 * The status, every header and the body of a cached answer, for this request at this moment: the one rule for
 * both paths that send cached answers (the response cache in front of Express, and the Express routes), so they
 * cannot drift. A pure function: same inputs, same answer.
 *
 * Each encoding has its own strong ETag (`"<hash>"`, `"<hash>-gzip"`, `"<hash>-br"`): a strong validator names
 * one exact byte sequence, and the bodies differ. `If-None-Match` matches any of them (they carry the same
 * content), and gets a 304 with the same headers but the content ones.
 */
export function prepareAnswer(answer: Answer, request: AnswerRequest, policy: HttpCachingPolicy): PreparedAnswer {
  const { body } = answer;
  const encoding = body[request.encoding] === undefined ? 'identity' : request.encoding;
  const security = securityHeaders(answer.contentSecurityPolicy, request.cors?.resourcePolicy);
  const headers = ['X-Request-Id', request.requestId, ...security];
  if (request.rateLimit !== undefined)
    headers.push('RateLimit', request.rateLimit.header, 'RateLimit-Policy', request.rateLimit.policyHeader);
  const vary = answer.vary ?? 'Accept-Encoding';
  if (request.cors !== undefined) headers.push(...request.cors.headers);
  headers.push(
    'ETag',
    variantTag(body.etag, encoding),
    'Cache-Control',
    answer.cacheControl ??
      `public, max-age=${answer.freshForSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}, stale-if-error=${policy.staleIfErrorSeconds}`,
    'Age',
    String(answer.ageSeconds),
    'X-Cache',
    answer.cacheStatus,
    'Vary',
    request.cors?.varyOrigin ? `${vary}, Origin` : vary,
  );
  if (request.ifNoneMatch !== undefined && matchesAnyVariant(request.ifNoneMatch, body.etag)) {
    return { status: 304, headers, body: undefined };
  }
  const bytes = body[encoding] ?? body.identity;
  headers.push('Content-Type', answer.contentType, 'Content-Length', String(bytes.length));
  if (encoding !== 'identity') headers.push('Content-Encoding', encoding);
  return { status: 200, headers, body: bytes };
}

/**
 * Writes a prepared answer whole. Headers set earlier on `res` (by Express middleware) are dropped first: the
 * answer's headers are exactly the ones prepareAnswer computed, on either path.
 */
export function writeAnswer(res: ServerResponse, { status, headers, body }: PreparedAnswer): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  res.writeHead(status, headers);
  res.end(body);
}

function variantTag(etag: string, encoding: BodyEncoding): string {
  return encoding === 'identity' ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

function matchesAnyVariant(ifNoneMatch: string, etag: string): boolean {
  const variants = new Set([etag, variantTag(etag, 'gzip'), variantTag(etag, 'br')]);
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || variants.has(tag));
}
