import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the shared cache's store (catalogue/redis-store.ts) reports to /metrics: each command's outcome, and whether Redis is answering. */
export interface SharedStoreMetrics {
  recordSharedCacheCommand(command: SharedCacheCommand, outcome: SharedCacheOutcome): void;
  setSharedCacheUp(up: boolean): void;
}
export type SharedCacheCommand = 'read' | 'write' | 'remove' | 'claim' | 'release';
export type SharedCacheOutcome = 'hit' | 'miss' | 'ok' | 'taken' | 'error';

/**
 * The figures behind `GET /metrics`, in a registry of their own (not prom-client's global one) so that every
 * app built in one process, as tests do, counts separately.
 */
export interface Metrics extends SharedStoreMetrics {
  registry: Registry;
  /** Counts and times every HTTP request by route pattern, method and status, and API answers by X-Cache. */
  recordRequests: RequestHandler;
  /**
   * Records the answers of the response cache in front of Express (response-cache.ts) for one route pattern and
   * method: counted exactly as recordRequests counts them (fresh hits, so X-Cache HIT), and in a count of their
   * own so operators see how much traffic bypasses Express. Bound once per route and method, as label lookups
   * cost a hash per call.
   */
  cachedAnswerRecorder(route: string, method: string): (status: number, seconds: number) => void;
  /** One upstream call: which operation, how it ended, how long it took. */
  recordUpstreamCall(operation: UpstreamOperation, outcome: UpstreamOutcome, seconds: number): void;
}

export type UpstreamOperation = 'list' | 'product' | 'image';
export type UpstreamOutcome = 'ok' | 'not_found' | 'error' | 'timeout';

export function createMetrics(): Metrics {
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
  const upstreamCalls = new Histogram({
    name: 'catalogue_upstream_call_duration_seconds',
    help: 'Calls to the product source by operation and outcome (ok, not_found, error, timeout), with their latency',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
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
  const sharedCacheCommands = new Counter({
    name: 'catalogue_shared_cache_commands_total',
    help: 'Commands to the shared cache (Redis, with REDIS_URL) by command and outcome (hit, miss, ok, taken, error)',
    labelNames: ['command', 'outcome'] as const,
    registers: [registry],
  });
  // Registered by the first report, so that without REDIS_URL no series says the shared cache is down.
  let sharedCacheUp: Gauge | undefined;

  return {
    registry,
    recordRequests: (req, res, next) => {
      const stopTimer = requestDuration.startTimer();
      res.on('finish', () => {
        // Route patterns, never raw paths: one label value per route keeps the series count bounded.
        const matched = req.route as { path: string } | undefined;
        const route = matched ? `${req.baseUrl}${matched.path}` : 'other';
        stopTimer({ route, method: req.method, status: String(res.statusCode) });
        const cacheStatus = res.locals.answer?.cacheStatus;
        if (cacheStatus !== undefined) cacheAnswers.inc({ status: cacheStatus });
      });
      next();
    },
    cachedAnswerRecorder(route, method) {
      // 200, or 304 for a matching If-None-Match: one series each, bound here once.
      const ok = requestDuration.labels({ route, method, status: '200' });
      const notModified = requestDuration.labels({ route, method, status: '304' });
      return (status, seconds) => {
        (status === 304 ? notModified : ok).observe(seconds);
        uncountedHits += 1;
      };
    },
    recordUpstreamCall(operation, outcome, seconds) {
      upstreamCalls.observe({ operation, outcome }, seconds);
    },
    recordSharedCacheCommand(command, outcome) {
      sharedCacheCommands.inc({ command, outcome });
    },
    setSharedCacheUp(up) {
      sharedCacheUp ??= new Gauge({
        name: 'catalogue_shared_cache_up',
        help: 'Whether the shared cache (Redis, with REDIS_URL) answers: 1 or 0',
        registers: [registry],
      });
      sharedCacheUp.set(up ? 1 : 0);
    },
  };
}
