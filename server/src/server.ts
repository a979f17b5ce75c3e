import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { collectDefaultMetrics } from 'prom-client';
import { createApiRateLimit } from './api/rate-limit.js';
import { type AppDependencies, createApp } from './app.js';
import { type CachedCatalogue, createCachedCatalogue } from './catalogue/cached-catalogue.js';
import { createEmbeddedSource } from './catalogue/embedded-source.js';
import { measuredSource } from './catalogue/measured-source.js';
import type { ProductSource } from './catalogue/product-source.js';
import type { Config } from './config.js';
import { createHitPath } from './hit-path/hit-path.js';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics.js';

/** `client/dist`, reached the same way from `server/src/` and from `server/dist/`. */
export const CLIENT_DIST_DIR = fileURLToPath(new URL('../../client/dist/', import.meta.url));

export interface RunningServer {
  /** Where the site answers, e.g. `http://localhost:3000`. */
  url: string;
  server: Server;
  catalogue: CachedCatalogue;
  /**
   * Stops accepting connections, lets requests in flight finish, closes idle keep-alive connections, and after
   * `graceMs` closes whatever is still open. Resolves once the server is closed.
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

async function createSource(config: Config, logger: Logger, metrics: Metrics): Promise<ProductSource> {
  if (config.productsApiUrl === null) return measuredSource(createEmbeddedSource({ logger }), metrics);
  // Imported only when needed: axios is about a quarter of the CPU spent starting up (measured: ~110 of
  // ~410 ms to the first /healthz), and the embedded catalogue, the default, never uses it.
  const { createHttpSource } = await import('./catalogue/http-source.js');
  return measuredSource(
    createHttpSource({ baseUrl: config.productsApiUrl, timeoutMs: config.upstreamTimeoutMs, maxImageBytes: config.imageMaxBytes, logger }),
    metrics,
  );
}

/**
 * What answers every request: the hit path (hit-path/), which replays fresh cache hits of the product API as
 * Express last sent them, in front of the Express app, which answers everything else. Both share one rate
 * limit, the metrics and the logger, so every request is limited, counted and logged the same way whichever
 * path answers it. `now` is the rate limit's clock.
 */
export function createRequestListener(dependencies: Omit<AppDependencies, 'rateLimit'>, now: () => number = Date.now): RequestListener {
  const rateLimit = createApiRateLimit(dependencies.config, now);
  const app = createApp({ ...dependencies, rateLimit });
  const { catalogue, metrics, logger } = dependencies;
  return createHitPath({ catalogue, metrics, logger, rateLimit, fallback: app });
}

/** Builds the catalogue and the app from a checked config and listens on HOST:PORT. Logs nothing itself. */
export async function startServer(config: Config, logger: Logger, staticDir = CLIENT_DIST_DIR): Promise<RunningServer> {
  const metrics = createMetrics();
  collectDefaultMetrics({ register: metrics.registry });
  const source = await createSource(config, logger, metrics);
  const catalogue = createCachedCatalogue({ source, config, logger });
  // 16 KiB of request headers whatever NODE_OPTIONS or a future Node default says (431 beyond, at the socket).
  const server = createServer({ maxHeaderSize: 16 * 1024 }, createRequestListener({ config, catalogue, logger, metrics, staticDir }));
  // Load balancers keep idle connections open for about 60 s; if Node closed them first (its default is 5 s),
  // a request sent on one at that moment would fail with a 502 at the balancer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

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

  return {
    url: displayUrl(config.host, (server.address() as AddressInfo).port),
    server,
    catalogue,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(deadline);
          catalogue.close();
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
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
