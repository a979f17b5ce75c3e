import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { MAX_API_URL_LENGTH } from './uri-too-long.js';
import { logAccess, type Logger, requestIdFor } from '../logger.js';
import type { CorsPolicy } from './cors.js';
import type { Metrics } from './metrics.js';
import type { ApiRateLimit, RateLimitVerdict } from './rate-limit.js';
import { type Answer, type HttpCachingPolicy, prepareAnswer, writeAnswer } from './answer.js';
import { createMemoisedEncodingChooser } from './memoised-encoding.js';

/**
 * A kind of answer the response cache may send itself: an exact-path matcher and a synchronous look at the
 * entry. Routes register with createResponseCache (buildServer does); the Express route behind it answers
 * everything the layer does not. `Key` is what match hands peek: a cache key, or what the route made of the URL
 * (a page's resolved route), so the URL is read once.
 */
export interface CacheableRoute<Key = string> {
  /** The route pattern as the Express app reports it in the metrics, e.g. `/api/products/:id`. */
  readonly pattern: string;
  /** Whether answers count against the API rate limit (true for everything under `/api`). */
  readonly rateLimited: boolean;
  /**
   * The cache key named by this exact request URL (path and query, as received), or undefined when the URL is
   * not this route's in a spelling it reads exactly as Express would (a view of the list reads its query; most
   * routes take one spelling only): any other spelling goes to Express.
   */
  match(url: string): Key | undefined;
  /**
   * The entry's answer if it is fresh now, else undefined. Synchronous: it never waits and never asks a source
   * (a miss or a stale copy is Express's to handle). `req` is there for entries that vary on more than the
   * encoding (e.g. an image format by `Accept`).
   */
  peek(key: Key, req: IncomingMessage): Answer | undefined;
}

export interface ResponseCacheOptions {
  routes: readonly CacheableRoute<unknown>[];
  policy: HttpCachingPolicy;
  metrics: Metrics;
  logger: Logger;
  /** The very limit the Express app applies to /api, so both paths count against one budget; null when off. */
  rateLimit: ApiRateLimit | null;
  /** The very CORS policy the Express app applies to `/api`, for the answers this layer sends under `/api`. */
  cors: CorsPolicy;
  /** What the layer does not answer: the Express app. */
  fallback: RequestListener;
  /** Told of each request whose URL named a route here, and whether a fresh entry answered it (traces, when on). */
  onLookup?: CacheLookup;
}

/** A request named `pattern`'s route: a fresh entry answered it (`hit`) or Express will (`miss`). */
export type CacheLookup = (req: IncomingMessage, pattern: string, outcome: 'hit' | 'miss') => void;

/**
 * The request listener in front of the Express app, as a cache in front of an origin: a GET or HEAD whose exact
 * URL names a fresh entry is answered here, with a lookup and a write (prepareAnswer, the same rule the Express
 * routes use). Express spends most of a cache hit walking its middleware and router; this does not.
 *
 * Everything else goes to Express unchanged: misses and stale copies (Express fetches and refreshes), any other
 * spelling of the path (trailing slash, case, escapes, a query string the route does not read), URLs over the
 * API's length limit, other methods and routes, and requests over the rate limit (Express answers the 429).
 * Like Express, it counts every request it answers against the rate limit, in the metrics and in the access log.
 */
export function createResponseCache({
  routes,
  policy,
  metrics,
  logger,
  rateLimit,
  cors,
  fallback,
  onLookup,
}: ResponseCacheOptions): RequestListener {
  const chooseEncoding = createMemoisedEncodingChooser();
  const registered = routes.map((route) => ({
    route,
    record: { GET: metrics.cachedAnswerRecorder(route.pattern, 'GET'), HEAD: metrics.cachedAnswerRecorder(route.pattern, 'HEAD') },
  }));
  type Registered = (typeof registered)[number];

  return (req, res) => {
    const started = performance.now();
    const { method, url = '' } = req;
    if (method !== 'GET' && method !== 'HEAD') return fallback(req, res);
    // Past the API's limit Express answers 414 (uri-too-long.ts), whatever the URL names: leading zeros make a
    // product id of any length. A page URL that long is rendered by Express too, the same answer.
    if (url.length > MAX_API_URL_LENGTH) return fallback(req, res);
    let found: Registered | undefined;
    let answer: Answer | undefined;
    for (const candidate of registered) {
      const key = candidate.route.match(url);
      if (key === undefined) continue;
      found = candidate;
      answer = candidate.route.peek(key, req);
      break;
    }
    if (found === undefined) return fallback(req, res);
    if (answer === undefined) {
      onLookup?.(req, found.route.pattern, 'miss');
      return fallback(req, res);
    }
    // Counted last, so that a request falling through for another reason is counted once, by Express. Past the
    // limit Express answers the 429, counting the request again, which changes nothing: it is over either way.
    const limit = found.route.rateLimited ? rateLimit : null;
    const verdict = limit?.consume(req);
    // With a shared store the count is a promise (settled within the store's time limit); the entry peeked a
    // moment ago is answered once it settles. Without one this stays synchronous.
    if (verdict instanceof Promise) {
      const [route, entry] = [found, answer];
      void verdict.then((settled) => answerHit(req, res, route, entry, limit, settled, started));
    } else answerHit(req, res, found, answer, limit, verdict, started);
  };

  function answerHit(
    req: IncomingMessage,
    res: ServerResponse,
    found: Registered,
    answer: Answer,
    limit: ApiRateLimit | null,
    verdict: RateLimitVerdict | undefined,
    started: number,
  ): void {
    if (verdict !== undefined && !verdict.allowed) return fallback(req, res);
    onLookup?.(req, found.route.pattern, 'hit');
    const { headers, url = '' } = req;
    const method = req.method as 'GET' | 'HEAD';
    const id = requestIdFor(req);
    const prepared = prepareAnswer(
      answer,
      {
        encoding: chooseEncoding(headers['accept-encoding']),
        ifNoneMatch: headers['if-none-match'],
        requestId: id,
        rateLimit: limit && verdict ? { header: verdict.header, policyHeader: limit.policyHeader } : undefined,
        // The rule the Express app mounts its CORS middleware by: everything under /api.
        cors: url.startsWith('/api/') ? cors.headersFor(headers.origin) : undefined,
      },
      policy,
    );
    writeAnswer(res, prepared);

    // Counted and logged once the answer is handed to Node, where the Express path waits for 'close': the whole
    // answer was written at once, and it saves a listener per request.
    const seconds = (performance.now() - started) / 1000;
    found.record[method](prepared.status, seconds);
    logAccess(logger, {
      id,
      method,
      url,
      statusCode: prepared.status,
      responseTime: Math.round(seconds * 1000),
      cache: answer.cacheStatus,
    });
  }
}
