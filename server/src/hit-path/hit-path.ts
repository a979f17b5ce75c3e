import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parseProductId } from '@catalogue/shared/product-id';
import type { ApiRateLimit } from '../api/rate-limit.js';
import type { CachedAnswer, CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { type Logger, requestIdFor } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { createMemoisedEncodingChooser } from './memoised-encoding.js';
import { recordedAnswer } from './recorded-answers.js';

export interface HitPathOptions {
  catalogue: CachedCatalogue;
  metrics: Metrics;
  logger: Logger;
  /** The very limit the Express app applies to /api, so both paths count against one budget. */
  rateLimit: ApiRateLimit | null;
  /** Whatever the hit path does not answer: the Express app. */
  fallback: RequestListener;
}

const LIST_PATH = '/api/products';
const PRODUCT_PATH_PREFIX = '/api/products/';
/** The route patterns Express reports for these paths, so the metrics of both paths share their series. */
const LIST_ROUTE = '/api/products';
const PRODUCT_ROUTE = '/api/products/:id';

/**
 * The request listener in front of the Express app. Express spends most of a cache hit walking its middleware
 * and router; this answers the commonest requests, fresh cache hits of `GET`/`HEAD /api/products` and
 * `/api/products/<digits>`, by replaying what Express itself sent for the same cache entry and encoding
 * (recorded in api/send-cached-answer.ts), with the per-request values (request id, Age, Cache-Control's
 * max-age, RateLimit) computed as Express computes them. So the answers of the two paths are the same bytes,
 * and anything added to the Express path shows up here after the next fill.
 *
 * Everything else goes to Express unchanged: misses and stale copies (Express fetches and refreshes),
 * entries Express has not yet sent as a HIT in that encoding, `If-None-Match` (Express answers the 304s),
 * query strings, any other spelling of the path (trailing slash, case, escapes), other methods and routes,
 * and requests over the rate limit (Express answers the 429). Like Express, it counts every request it
 * answers in the metrics and the access log.
 */
export function createHitPath({ catalogue, metrics, logger, rateLimit, fallback }: HitPathOptions): RequestListener {
  const chooseEncoding = createMemoisedEncodingChooser();
  const recorders = {
    list: { GET: metrics.hitPathRecorder(LIST_ROUTE, 'GET'), HEAD: metrics.hitPathRecorder(LIST_ROUTE, 'HEAD') },
    product: { GET: metrics.hitPathRecorder(PRODUCT_ROUTE, 'GET'), HEAD: metrics.hitPathRecorder(PRODUCT_ROUTE, 'HEAD') },
  };

  /** Answers the request and returns true, or returns false having touched nothing. */
  function answerHit(req: IncomingMessage, res: ServerResponse): boolean {
    const started = performance.now();
    const method = req.method;
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '';
    let answer: CachedAnswer<unknown> | undefined;
    let recorder: typeof recorders.list;
    if (url === LIST_PATH) {
      answer = catalogue.peekListHit();
      recorder = recorders.list;
    } else if (url.startsWith(PRODUCT_PATH_PREFIX)) {
      const productId = parseProductId(url.slice(PRODUCT_PATH_PREFIX.length));
      if (productId === null) return false;
      answer = catalogue.peekProductHit(productId);
      recorder = recorders.product;
    } else {
      return false;
    }
    if (answer === undefined) return false;
    const headers = req.headers;
    if (headers['if-none-match'] !== undefined) return false;
    const recorded = recordedAnswer(answer.body, chooseEncoding(headers['accept-encoding']));
    // A recording made without the limit (or with it) while this path has it (or not) would send wrong headers.
    if (recorded === undefined || recorded.rateLimited !== (rateLimit !== null)) return false;
    // Counted last, so that a request falling through for another reason is counted once, by Express. Past the
    // limit Express answers the 429, counting the request again, which changes nothing: it is over either way.
    const verdict = rateLimit?.consume(req);
    if (verdict !== undefined && !verdict.allowed) return false;

    const id = requestIdFor(req);
    res.writeHead(recorded.statusCode, recorded.headersFor(id, answer, verdict?.header));
    res.end(recorded.body);

    // Counted and logged once the answer is handed to Node, where the Express path waits for 'finish': the
    // whole answer was written at once, and it saves a listener per request.
    const seconds = (performance.now() - started) / 1000;
    recorder[method](seconds);
    if (logger.isLevelEnabled('info')) {
      // The line pino-http writes for the Express path (app.ts), without a child logger per request.
      logger.info(
        { req: { id, method, url }, res: { statusCode: recorded.statusCode }, responseTime: Math.round(seconds * 1000), cache: 'HIT' },
        'request completed',
      );
    }
    return true;
  }

  return (req, res) => {
    if (!answerHit(req, res)) fallback(req, res);
  };
}
