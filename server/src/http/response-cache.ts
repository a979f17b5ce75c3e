import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { MAX_API_URL_LENGTH } from './uri-too-long.js';
import { logAccess, type Logger, requestIdFor } from '../logger.js';
import type { CorsPolicy } from './cors.js';
import type { Metrics } from './metrics.js';
import type { ApiRateLimit, RateLimitVerdict } from './rate-limit.js';
import type { BodyBytes } from '../bodies/encoded-body.js';
import { type Answer, type Freshness, type HttpCachingPolicy, prepareAnswer, writeAnswer } from './answer.js';
import { createMemoisedEncodingChooser } from './memoised-encoding.js';

/** The route an answer was kept for, as the response cache needs it to send that answer again. */
export interface KeptRoute {
  /** The route as the metrics name it (`/api/products/:id`). */
  readonly pattern: string;
  /** Under `/api`: rate limited and sent with the API's CORS headers. */
  readonly api: boolean;
  /** What the answer depends on besides its URL and `Accept-Encoding` (a photo's format by `Accept`, a page's origin). */
  variesBy?(req: IncomingMessage): string;
}

export interface ResponseCacheOptions {
  policy: HttpCachingPolicy;
  metrics: Metrics;
  logger: Logger;
  /** The very limit the Express app applies to /api, so both paths count against one budget; null when off. */
  rateLimit: ApiRateLimit | null;
  /** The very CORS policy the Express app applies to `/api`, for the answers this layer sends under `/api`. */
  cors: CorsPolicy;
  /** Milliseconds since the epoch: the catalogue's clock, which says when a kept answer stops being fresh. */
  now: () => number;
  /** Told of each GET or HEAD it looked up: a kept answer sent it (`hit`, with its route) or Express will (`miss`). */
  onLookup?: CacheLookup;
  /** The bytes of kept answers' bodies held in memory at most (a body kept for several URLs counts for each). */
  maxBytes?: number;
}

/** A request the response cache looked up: a kept answer sent it (`hit`) or Express will (`miss`). */
export type CacheLookup = (req: IncomingMessage, outcome: 'hit' | 'miss', pattern?: string) => void;

/**
 * The cache in front of the Express app: every fresh answer a cached route sends from Express is kept under its
 * exact URL (`keep`), and a later GET or HEAD of that URL is sent from here, as a cache in front of an origin
 * would, until the entry it was made from stops being fresh.
 */
export interface ResponseCache {
  /**
   * Keeps what a cached route answered for `req` (sent from Express) under `url`, the request's target as received
   * (Express's `originalUrl`), if the answer says it may be kept and is fresh.
   */
  keep(url: string, req: IncomingMessage, route: KeptRoute, answer: Answer): void;
  /** The request listener: kept answers sent here, everything else handed to `fallback` (the Express app). */
  inFrontOf(fallback: RequestListener): RequestListener;
}

/**
 * Room for every page and view a busy site asks for: a page or a view is 10–100 KB with its encodings, and a whole
 * list over 1 MiB is kept on disk, not here (catalogue/list/list-files.ts).
 */
export const RESPONSE_CACHE_MAX_BYTES = 64 * 1024 * 1024;

/** What a kept answer costs beside its bodies: the key, the maps' entries, the objects. */
const KEPT_OVERHEAD_BYTES = 256;

interface Kept {
  readonly answer: Answer;
  readonly freshness: Freshness;
  readonly bytes: number;
}

interface KeptUrl {
  readonly route: KeptRoute;
  readonly record: Record<'GET' | 'HEAD', (status: number, seconds: number) => void>;
  /** By what the route varies by ('' when it varies by nothing). */
  readonly answers: Map<string, Kept>;
}

/**
 * The kept answers, by URL as received (a URL is what a client asks again; another spelling is another entry), at
 * most `maxBytes` of bodies in memory, the oldest kept going first. An answer is sent from here only while it is
 * fresh: HIT, its `Age` and `Cache-Control` worked out from its Freshness at the moment it is sent, exactly as the
 * catalogue works them out; past that, the URL goes to Express, which serves the stale copy and refreshes it.
 *
 * Only GET and HEAD within the API's URL length are looked up; answers over the rate limit are Express's (the 429).
 * Like Express, it counts every request it answers against the rate limit, in the metrics and in the access log.
 */
export function createResponseCache({
  policy,
  metrics,
  logger,
  rateLimit,
  cors,
  now,
  onLookup,
  maxBytes = RESPONSE_CACHE_MAX_BYTES,
}: ResponseCacheOptions): ResponseCache {
  const chooseEncoding = createMemoisedEncodingChooser();
  const urls = new Map<string, KeptUrl>();
  const recorders = new Map<string, KeptUrl['record']>();
  let heldBytes = 0;

  function recorderOf(pattern: string): KeptUrl['record'] {
    let record = recorders.get(pattern);
    if (record === undefined) {
      record = { GET: metrics.cachedAnswerRecorder(pattern, 'GET'), HEAD: metrics.cachedAnswerRecorder(pattern, 'HEAD') };
      recorders.set(pattern, record);
    }
    return record;
  }

  function forget(url: string, kept: KeptUrl): void {
    for (const { bytes } of kept.answers.values()) heldBytes -= bytes;
    urls.delete(url);
  }

  function keep(url: string, req: IncomingMessage, route: KeptRoute, answer: Answer): void {
    const { freshness } = answer;
    if (freshness === undefined || freshness.freshUntil <= now() || url.length > MAX_API_URL_LENGTH) return;
    // Its files are owned by the list they came from, held only while one response reads them: kept here, they would
    // hold that list's files as long as the answer is kept (docs/decisions/list-ownership.md).
    if (answer.release !== undefined) return;
    let kept = urls.get(url);
    // Kept again at the end: the oldest kept goes first.
    if (kept !== undefined) forget(url, kept);
    kept = { route, record: recorderOf(route.pattern), answers: kept?.answers ?? new Map<string, Kept>() };
    const bytes = KEPT_OVERHEAD_BYTES + url.length + bytesInMemory(answer);
    const variant = route.variesBy?.(req) ?? '';
    kept.answers.set(variant, { answer: { ...answer, cacheStatus: 'HIT' }, freshness, bytes });
    for (const { bytes: held } of kept.answers.values()) heldBytes += held;
    urls.set(url, kept);
    for (const [oldest, entry] of urls) {
      if (heldBytes <= maxBytes) break;
      forget(oldest, entry);
    }
  }

  function inFrontOf(fallback: RequestListener): RequestListener {
    return (req, res) => {
      const started = performance.now();
      const { method, url = '' } = req;
      if (method !== 'GET' && method !== 'HEAD') return fallback(req, res);
      const kept = urls.get(url);
      const entry = kept?.answers.get(kept.route.variesBy?.(req) ?? '');
      const at = now();
      if (kept === undefined || entry === undefined || at >= entry.freshness.freshUntil) {
        onLookup?.(req, 'miss');
        return fallback(req, res);
      }
      const answer = answerAt(entry, at);
      // Counted last, so that a request falling through for another reason is counted once, by Express. Past the
      // limit Express answers the 429, counting the request again, which changes nothing: it is over either way.
      const limit = kept.route.api ? rateLimit : null;
      const verdict = limit?.consume(req);
      // With a shared store the count is a promise (settled within the store's time limit); the answer is sent once
      // it settles. Without one this stays synchronous.
      if (verdict instanceof Promise) void verdict.then((settled) => send(req, res, kept, answer, limit, settled, started));
      else send(req, res, kept, answer, limit, verdict, started);
    };

    function send(
      req: IncomingMessage,
      res: ServerResponse,
      kept: KeptUrl,
      answer: Answer,
      limit: ApiRateLimit | null,
      verdict: RateLimitVerdict | undefined,
      started: number,
    ): void {
      if (verdict !== undefined && !verdict.allowed) return fallback(req, res);
      onLookup?.(req, 'hit', kept.route.pattern);
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
          cors: kept.route.api ? cors.headersFor(headers.origin) : undefined,
        },
        policy,
      );
      writeAnswer(res, prepared);

      // Counted and logged once the answer is handed to Node, where the Express path waits for 'close': the whole
      // answer was written at once, and it saves a listener per request.
      const seconds = (performance.now() - started) / 1000;
      kept.record[method](prepared.status, seconds);
      logAccess(logger, { id, method, url, statusCode: prepared.status, responseTime: Math.round(seconds * 1000), cache: 'HIT' });
    }
  }

  return { keep, inFrontOf };
}

/** A kept answer as it stands at `at`: its age and freshness left, in whole seconds, as the catalogue counts them. */
function answerAt({ answer, freshness }: Kept, at: number): Answer {
  return {
    ...answer,
    ageSeconds: Math.floor(Math.max(0, at - freshness.storedAt) / 1000),
    freshForSeconds: Math.max(0, Math.floor((freshness.freshUntil - at) / 1000)),
  };
}

function bytesInMemory({ body }: Answer): number {
  const size = (bytes: BodyBytes | undefined) => (Buffer.isBuffer(bytes) ? bytes.length : 0);
  return size(body.identity) + size(body.gzip) + size(body.br);
}
