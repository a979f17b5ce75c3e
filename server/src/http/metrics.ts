import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter, Histogram, Registry } from 'prom-client';
import { STDOUT_BACKLOG_MAX_BYTES } from '../logger.js';

/**
 * The figures behind `GET /metrics`, in a registry of their own (not prom-client's global one) so that every
 * app built in one process, as tests do, counts separately.
 */
export interface Metrics {
  registry: Registry;
  /** Counts and times every HTTP request by route pattern, method and status, and API answers by X-Cache. */
  recordRequests: RequestHandler;
  /**
   * Records the answers of the response cache in front of Express (response-cache.ts) for one route pattern and
   * method: counted exactly as recordRequests counts them (fresh hits, so X-Cache HIT), and in a count of their
   * own so operators see how much traffic bypasses Express. Bound once per route and method.
   */
  cachedAnswerRecorder(route: string, method: string): (status: number, seconds: number) => void;
}

export interface MetricsOptions {
  /** How many log lines the process's log dropped while stdout's reader was behind (logger.ts). Default: none. */
  droppedLogLines?: () => number;
}

export function createMetrics({ droppedLogLines = () => 0 }: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const requestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their latency',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const cacheAnswers = new Counter({
    name: 'catalogue_cache_answers_total',
    help: 'Catalogue API answers by cache status (HIT, MISS, STALE)',
    labelNames: ['status'] as const,
    registers: [registry],
    // The response cache's hits, counted in uncountedHits below, are added when either counter is read.
    collect: () => countFrontAnswers(),
  });
  // The response cache's answers are counted in plain numbers and added to their counters when /metrics is read
  // (prom-client's collect hook): a labelled inc validates and hashes its labels on every call, even on a bound
  // child, which is work on the hot path that a scrape every few seconds can do instead.
  let uncountedHits = 0;
  const frontAnswers = new Counter({
    name: 'http_response_cache_answers_total',
    help: 'Requests answered by the response cache in front of Express (fresh cache hits); they are also in the figures above',
    registers: [registry],
    collect: () => countFrontAnswers(),
  });
  function countFrontAnswers(): void {
    if (uncountedHits === 0) return;
    const hits = uncountedHits;
    uncountedHits = 0;
    frontAnswers.inc(hits);
    cacheAnswers.inc({ status: 'HIT' }, hits);
  }
  // Counted by the process's log, where they are dropped; read when /metrics is.
  const droppedLogLinesTotal = new Counter({
    name: 'log_lines_dropped_total',
    help: `Log lines dropped, not written, while stdout's reader was more than ${STDOUT_BACKLOG_MAX_BYTES / 1024 / 1024} MiB behind (access lines and others)`,
    registers: [registry],
    collect() {
      droppedLogLinesTotal.reset();
      droppedLogLinesTotal.inc(droppedLogLines());
    },
  });

  return {
    registry,
    recordRequests: (req, res, next) => {
      const stopTimer = requestDuration.startTimer();
      res.on('finish', () => {
        stopTimer({ route: routePatternOf(req), method: req.method, status: String(res.statusCode) });
        const cacheStatus = res.locals.requestContext?.cacheStatus;
        if (cacheStatus !== undefined) cacheAnswers.inc({ status: cacheStatus });
      });
      next();
    },
    cachedAnswerRecorder(route, method) {
      // 200, or 304 for a matching If-None-Match: one series each, bound here once. A bound child's observe still
      // checks its labels (about 0.3 µs, under 1 % of a cached answer); counting buckets by hand and splicing them
      // into prom-client's output would save that only by reaching into its internals.
      const ok = requestDuration.labels({ route, method, status: '200' });
      const notModified = requestDuration.labels({ route, method, status: '304' });
      return (status, seconds) => {
        (status === 304 ? notModified : ok).observe(seconds);
        uncountedHits += 1;
      };
    },
  };
}

/**
 * The pattern of the Express route that answered `req` (`/api/products/:id`), or `other`: route patterns, never raw
 * paths, so that one label value per route keeps the series count bounded. Traces name their spans by it too.
 */
export function routePatternOf(req: IncomingMessage): string {
  // Express sets both on the request it was handed, the same object, as it routes it.
  const { route, baseUrl = '' } = req as IncomingMessage & { route?: { path: string }; baseUrl?: string };
  return route ? `${baseUrl}${route.path}` : 'other';
}
