import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { collectDefaultMetrics } from 'prom-client';
import { createApp } from './app.js';
import { type CachedCatalogue, createCachedCatalogue } from './catalogue/caches/cached-catalogue.js';
import { createEmbeddedSource } from './catalogue/sources/embedded-source.js';
import { measuredSource } from './catalogue/sources/measured-source.js';
import { createRedisStore } from './catalogue/caches/redis-store.js';
import type { ProductSource } from './catalogue/sources/product-source.js';
import type { Config } from './config.js';
import { httpCachingPolicy } from './http/answer.js';
import { cachedRouteMount } from './http/cached-route.js';
import { createCorsPolicy } from './http/cors.js';
import { createMetrics, type Metrics } from './http/metrics.js';
import { createApiRateLimit, RATE_LIMIT_WINDOW_MS } from './http/rate-limit.js';
import { createRedisRateCounter } from './http/redis-rate-counter.js';
import { createResponseCache } from './http/response-cache.js';
import type { Slice } from './http/slice.js';
import { answerUnreadableRequest, refuseUnclearHost } from './http/unreadable-requests.js';
import { createImagesSlice } from './images/images-slice.js';
import type { Logger } from './logger.js';
import { createOpenApiSlice } from './openapi/openapi-slice.js';
import { loadPageRenderer } from './pages/page-renderer.js';
import { createPagesSlice } from './pages/pages-slice.js';
import { createProbesSlice } from './probes/probes-slice.js';
import { createProductsSlice } from './products/products-slice.js';
import { createStaticFilesSlice } from './static/static-files-slice.js';
import type { RequestTracing } from './tracing/request-spans.js';

/**
 * `client/dist`, reached the same way from `server/src/` and from `server/dist/`; joined to import.meta.dirname,
 * as Vite rewrites `new URL(…, import.meta.url)` when the client's tests load this in jsdom.
 */
export const CLIENT_DIST_DIR = join(import.meta.dirname, '../../client/dist/');

/** What the process (index.ts) or a test hands in besides the configuration. */
export interface ServerDependencies {
  logger: Logger;
  /** The built client. Default: `client/dist`. */
  staticDir?: string;
  /** Milliseconds since the epoch, for the cache and the rate limit. Default: `Date.now`; tests move their own. */
  now?: () => number;
  /** The embedded catalogue's folder, used when the configuration names no upstream. Default: the bundled one. */
  embeddedDirectory?: URL;
  /** How many lines the process's log dropped (createProcessLog), for /metrics. Default: none. */
  droppedLogLines?: () => number;
  /** A span around each request, when traces are on (tracing/start-tracing.ts). Default: none, and no cost. */
  tracing?: RequestTracing;
  /** The connections' time limits. Default: CONNECTION_LIMITS; tests shorten them to see them act within seconds. */
  connectionLimits?: ConnectionLimits;
}

/** How long a connection may take over a request, and stay open between two (docs/operations.md, "Slow clients"). */
export interface ConnectionLimits {
  /** From a request's first byte to the end of its headers; past it `408` and the connection is closed. */
  headersTimeoutMs: number;
  /** From a request's first byte to its last (body included); past it `408` and the connection is closed. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open for its next request. */
  keepAliveTimeoutMs: number;
  /** How often the two limits above are checked: a connection past one is closed up to this much later. */
  checkIntervalMs: number;
}

/**
 * Without nginx in front (one process, one container) these are what hold slow clients off: a connection
 * dribbling its headers is cut 10–12 s after its first byte, while Node's default would keep it up to 90 s.
 * The idle keep-alive time outlives load balancers' 60 s (nginx's `keepalive_timeout` is 65 s), so a balancer
 * never sends a request on a connection this server is closing at that moment (a 502 at the balancer).
 */
export const CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  checkIntervalMs: 2_000,
};

/** The whole server, wired, not yet listening. */
export interface BuiltServer {
  /** The node:http server: the response cache in front of the Express app. */
  server: Server;
  /** The Express app alone, without the layer in front: tests compare the two paths' answers with it. */
  app: RequestListener;
  catalogue: CachedCatalogue;
  metrics: Metrics;
  /** Listens on the configured HOST:PORT; resolves where the site answers, e.g. `http://localhost:3000`. */
  listen(): Promise<string>;
  /**
   * Stops accepting connections, lets requests in flight finish, closes idle keep-alive connections, and after
   * `graceMs` closes whatever is still open. Resolves once the server is closed and the catalogue released.
   */
  close(graceMs: number): Promise<void>;
}

/** Listening failed (port in use, no permission); the message is one line meant for stderr as it is. */
export class ListenError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'ListenError';
  }
}

/**
 * The one way the server is put together, by index.ts and by every test that runs it: metrics, the product
 * source, the cached catalogue, one rate limit, one CORS policy, one caching policy, the slices, the Express app
 * that mounts them, and the response cache in front of it that answers fresh cache hits (http/response-cache.ts)
 * with what the slices' cached routes handed it (through mountCached). The rate limit, the metrics and the logger are shared by both, so every request
 * is limited, counted and logged the same way whichever answers it. Logs nothing itself.
 */
export async function buildServer(config: Config, dependencies: ServerDependencies): Promise<BuiltServer> {
  const {
    logger,
    staticDir = CLIENT_DIST_DIR,
    now = Date.now,
    embeddedDirectory,
    droppedLogLines,
    tracing,
    connectionLimits = CONNECTION_LIMITS,
  } = dependencies;
  const metrics = createMetrics({ ...(droppedLogLines && { droppedLogLines }) });
  collectDefaultMetrics({ register: metrics.registry });
  const source = measuredSource(await createSource(config, logger, embeddedDirectory, metrics), metrics.registry);
  // With REDIS_URL, replicas share validated answers and coalesce fills through Redis (docs/scaling.md).
  const sharedStore =
    config.redisUrl === null
      ? undefined
      : createRedisStore({ url: config.redisUrl, namespace: config.productsApiUrl ?? 'embedded', logger, registry: metrics.registry });
  const catalogue = createCachedCatalogue({ source, config, logger, now, ...(sharedStore && { sharedStore }) });
  // With REDIS_URL, one limit per client for the whole site (docs/scaling.md); the replica's own count while Redis cannot answer.
  const rateLimit = createApiRateLimit(
    config,
    now,
    config.redisUrl === null || config.rateLimitPerMinute === 0
      ? undefined
      : createRedisRateCounter({
          url: config.redisUrl,
          limit: config.rateLimitPerMinute,
          windowMs: RATE_LIMIT_WINDOW_MS,
          logger,
          registry: metrics.registry,
        }),
  );
  const cors = createCorsPolicy(config);
  // One policy for every cached answer, whichever path sends it.
  const caching = httpCachingPolicy(config);
  // The cache in front of Express keeps what the cached routes answer there, and sends it again while it is fresh.
  const responses = createResponseCache({
    policy: caching,
    metrics,
    logger,
    rateLimit,
    cors,
    now,
    ...(tracing && { onLookup: tracing.cacheLookedUp }),
  });
  const mountCached = cachedRouteMount({ caching, responses, logger });
  const parts = {
    config,
    catalogue,
    source,
    caching,
    mountCached,
    logger,
    metrics,
    now,
    staticDir,
    renderer: await loadPageRenderer(staticDir),
  };
  // Each slice from its dependencies (http/slice.ts), in mounting order: under /api the products' routes before
  // the photo's (a category named `image` is a category); at the root the pages, which take every path, last.
  const slices: Slice[] = [
    createProductsSlice(parts),
    createImagesSlice(parts),
    createOpenApiSlice(),
    createProbesSlice(parts),
    createStaticFilesSlice(parts),
    createPagesSlice(parts),
  ];
  const app = createApp({ config, logger, metrics, rateLimit, cors, slices });
  const listener = responses.inFrontOf(app);

  // 16 KiB of request headers whatever NODE_OPTIONS or a future Node default says (431 beyond, at the socket).
  // Host is checked by refuseUnclearHost, which answers as the API does where Node's own check sends a bare 400.
  const server = createServer(
    {
      maxHeaderSize: 16 * 1024,
      requireHostHeader: false,
      // Set here rather than left to Node's defaults, which have changed between versions (docs/operations.md).
      headersTimeout: connectionLimits.headersTimeoutMs,
      requestTimeout: connectionLimits.requestTimeoutMs,
      keepAliveTimeout: connectionLimits.keepAliveTimeoutMs,
      connectionsCheckingInterval: connectionLimits.checkIntervalMs,
    },
    refuseUnclearHost(tracing ? tracing.traced(listener) : listener, logger),
  );
  // What Node's parser refuses, or a time limit cuts, answered as the API answers (http/unreadable-requests.ts).
  server.on('clientError', answerUnreadableRequest(logger));

  return {
    server,
    app,
    catalogue,
    metrics,
    async listen() {
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(config.port, config.host, () => {
            server.off('error', reject);
            resolve();
          });
        });
      } catch (error) {
        catalogue.close();
        throw new ListenError(describeListenError(error, config), { cause: error });
      }
      return displayUrl(config.host, (server.address() as AddressInfo).port);
    },
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        // From now on every answer closes its connection: keep-alive clients go elsewhere at once rather than
        // keep this server busy until the grace period ends.
        server.prependListener('request', (_req, res) => {
          res.shouldKeepAlive = false;
        });
        const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(deadline);
          catalogue.close();
          for (const slice of slices) slice.close();
          void Promise.resolve(rateLimit?.close()).then(() => resolve());
        });
        server.closeIdleConnections();
      }),
  };
}

async function createSource(config: Config, logger: Logger, embeddedDirectory: URL | undefined, metrics: Metrics): Promise<ProductSource> {
  const dataDir = config.catalogueDataDir;
  if (config.productsApiUrl === null)
    return createEmbeddedSource({ logger, dataDir, ...(embeddedDirectory && { directory: embeddedDirectory }) });
  // Imported only when needed: axios is about a quarter of the CPU spent starting up (measured: ~110 of
  // ~410 ms to the first /healthz), and the embedded catalogue, the default, never uses it.
  const { createHttpSource } = await import('./catalogue/sources/http-source.js');
  return createHttpSource({
    baseUrl: config.productsApiUrl,
    timeoutMs: config.upstreamTimeoutMs,
    maxImageBytes: config.imageMaxBytes,
    maxJsonBytes: config.upstreamMaxBytes,
    imageHosts: config.imageHosts,
    logger,
    registry: metrics.registry,
    dataDir,
  });
}

function describeListenError(error: unknown, { host, port }: Config): string {
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unknown';
  const reasons: Record<string, string> = {
    EADDRINUSE: 'the port is already in use (set PORT to another one)',
    EACCES: 'permission denied (ports below 1024 need privileges; set PORT)',
    EADDRNOTAVAIL: 'the address is not available on this machine (check HOST)',
    ENOTFOUND: 'the host name does not resolve (check HOST)',
  };
  return `Cannot listen on ${host}:${port}: ${reasons[code] ?? (error instanceof Error ? error.message : code)}`;
}

function displayUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}
