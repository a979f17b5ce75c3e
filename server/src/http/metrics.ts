import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, type LabelValues, type MetricValueWithName } from 'prom-client';
import { STDOUT_BACKLOG_MAX_BYTES } from '../logger.js';

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
   * own so operators see how much traffic bypasses Express. Bound once per route and method; their latencies are
   * counted in plain numbers and added to the histogram when /metrics is read (RequestDurationHistogram).
   */
  cachedAnswerRecorder(route: string, method: string): (status: number, seconds: number) => void;
  /** One upstream call: which operation, how it ended, how long it took. */
  recordUpstreamCall(operation: UpstreamOperation, outcome: UpstreamOutcome, seconds: number): void;
}

export type UpstreamOperation = 'list' | 'product' | 'image';
export type UpstreamOutcome = 'ok' | 'not_found' | 'error' | 'timeout';

export interface MetricsOptions {
  /** How many log lines the process's log dropped while stdout's reader was behind (logger.ts). Default: none. */
  droppedLogLines?: () => number;
}

export function createMetrics({ droppedLogLines = () => 0 }: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const requestDuration = new RequestDurationHistogram(registry);
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
  // Registered by the first report, so that without REDIS_URL no series says the shared cache is down.
  let sharedCacheUp: Gauge | undefined;

  return {
    registry,
    recordRequests: (req, res, next) => {
      const stopTimer = requestDuration.startTimer();
      res.on('finish', () => {
        stopTimer({ route: routePatternOf(req), method: req.method, status: String(res.statusCode) });
        const cacheStatus = res.locals.answer?.cacheStatus;
        if (cacheStatus !== undefined) cacheAnswers.inc({ status: cacheStatus });
      });
      next();
    },
    cachedAnswerRecorder(route, method) {
      // 200, or 304 for a matching If-None-Match: one series each, bound here once.
      const ok = requestDuration.frontSeries({ route, method, status: '200' });
      const notModified = requestDuration.frontSeries({ route, method, status: '304' });
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

/**
 * The pattern of the Express route that answered `req` (`/api/products/:id`), or `other`: route patterns, never raw
 * paths, so that one label value per route keeps the series count bounded. Traces name their spans by it too.
 */
export function routePatternOf(req: IncomingMessage): string {
  // Express sets both on the request it was handed, the same object, as it routes it.
  const { route, baseUrl = '' } = req as IncomingMessage & { route?: { path: string }; baseUrl?: string };
  return route ? `${baseUrl}${route.path}` : 'other';
}

type RequestLabel = 'route' | 'method' | 'status';
const REQUEST_DURATION = 'http_request_duration_seconds';
const REQUEST_DURATION_BUCKETS: readonly number[] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What prom-client's registry reads a metric's text through (registry.js) when it has it, rather than `get()`. */
interface PromStringSource {
  getForPromString(): Promise<{ values: MetricValueWithName<string>[] }>;
}

/**
 * One series of the response cache's answers (a route, a method, a status), counted in plain numbers: a
 * prom-client observe validates and hashes its labels on every call, even on a bound child (about 0.5 µs, a
 * measurable share of a cached answer), where this finds a bucket in a short scan. Read with the rest of the
 * histogram when /metrics is scraped.
 */
class FrontSeries {
  /** Answers by bucket, not cumulative: index i counts values up to REQUEST_DURATION_BUCKETS[i] and above the one before; the last, the rest. */
  readonly counts = new Float64Array(REQUEST_DURATION_BUCKETS.length + 1);
  sum = 0;
  count = 0;
  /** Whether prom-client holds this series yet (its first answer is observed there, so the series is listed). */
  private listed = false;

  constructor(
    private readonly histogram: Histogram<RequestLabel>,
    private readonly labels: LabelValues<RequestLabel>,
  ) {}

  observe(seconds: number): void {
    if (!this.listed) {
      this.histogram.observe(this.labels, seconds);
      this.listed = true;
      return;
    }
    let bucket = 0;
    while (bucket < REQUEST_DURATION_BUCKETS.length && seconds > REQUEST_DURATION_BUCKETS[bucket]!) bucket += 1;
    this.counts[bucket]! += 1;
    this.sum += seconds;
    this.count += 1;
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
    this.listed = false;
  }

  /** Answers up to `le` (a bucket's bound, or `+Inf`), as a cumulative bucket counts them. */
  countUpTo(le: string | number | undefined): number {
    const last = le === '+Inf' ? REQUEST_DURATION_BUCKETS.length : REQUEST_DURATION_BUCKETS.indexOf(Number(le));
    let total = 0;
    for (let bucket = 0; bucket <= last; bucket += 1) total += this.counts[bucket]!;
    return total;
  }
}

/**
 * `http_request_duration_seconds`: prom-client's histogram, which the Express path observes, plus the response
 * cache's answers counted by FrontSeries and added to the same series whenever the metric is read (text or JSON).
 * Same buckets, same labels, same totals as if every answer had been observed one by one.
 */
class RequestDurationHistogram extends Histogram<RequestLabel> {
  private readonly front = new Map<string, FrontSeries>();

  constructor(registry: Registry) {
    super({
      name: REQUEST_DURATION,
      help: 'HTTP requests by route pattern, method and status, with their latency',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [...REQUEST_DURATION_BUCKETS],
      registers: [registry],
    });
  }

  frontSeries(labels: Required<LabelValues<RequestLabel>>): FrontSeries {
    const key = seriesKey(labels);
    let series = this.front.get(key);
    if (series === undefined) this.front.set(key, (series = new FrontSeries(this, labels)));
    return series;
  }

  // prom-client reads a histogram through this method for the text and for get() (JSON) alike: added once here.
  async getForPromString(): ReturnType<PromStringSource['getForPromString']> {
    return this.withFront(await (Histogram.prototype as unknown as PromStringSource).getForPromString.call(this));
  }

  override reset(): void {
    super.reset();
    // prom-client's constructor calls this too, before this class's fields exist.
    for (const series of (this.front as typeof this.front | undefined)?.values() ?? []) series.reset();
  }

  /** Adds the front's counts to prom-client's values (new objects on every read), bucket by bucket. */
  private withFront<Read extends { values: MetricValueWithName<string>[] }>(read: Read): Read {
    for (const value of read.values) {
      // get() puts a series' labels in `labels`; the text path keeps them in `sharedLabels`, with only `le` in `labels`.
      const labels = { ...(value as { sharedLabels?: LabelValues<string> }).sharedLabels, ...value.labels };
      const series = this.front.get(seriesKey(labels));
      if (series === undefined || series.count === 0) continue;
      if (value.metricName === `${REQUEST_DURATION}_sum`) value.value += series.sum;
      else if (value.metricName === `${REQUEST_DURATION}_count`) value.value += series.count;
      else value.value += series.countUpTo(labels.le);
    }
    return read;
  }
}

function seriesKey({ route, method, status }: LabelValues<string>): string {
  return `${route} ${method} ${status}`;
}
