import type { Server } from 'node:http';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStaticDir } from '@catalogue/testing/static-dir';
import { createTestClock, type TestClock } from '@catalogue/testing/test-clock';
import { startUpstreamStub, type UpstreamStub, type UpstreamStubOptions } from '@catalogue/testing/upstream-double';
import { buildServer, CONNECTION_LIMITS, type ConnectionLimits } from '../build-server.js';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import { type Config, loadConfig } from '../config.js';
import type { Metrics } from '../http/metrics.js';
import { watchAnswers } from './answer-watch.js';
import { createCapturingLogger, type LogRecord } from './capturing-logger.js';

export interface TestSiteOptions {
  /** What the upstream double serves (deliberately `unknown`, so tests can serve malformed ones). Default: FIXTURE_PRODUCTS. */
  products?: readonly unknown[];
  /**
   * Environment variables as the server reads them (README, "Configuration"), on top of the test defaults:
   * 127.0.0.1 on a free port, PRODUCTS_API_URL pointing at the upstream double, LOG_LEVEL=warn.
   */
  config?: Record<string, string>;
  /** The upstream double's other options. */
  upstream?: Omit<UpstreamStubOptions, 'products'>;
  /** Serve the embedded catalogue in this folder instead of the upstream double (which still starts, unused). */
  embeddedDirectory?: URL;
  /** Leave out index.html, as before the client is built. */
  withoutClient?: boolean;
  /** The connections' time limits, over production's (build-server.ts): shortened to see them act within seconds. */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Run the server as `npm run build` compiled it (`server/dist`, built by the tests' global set-up) rather than from
   * its TypeScript: its list's fills are then processes of plain Node, started in a tenth of the time, which tests
   * that fill hundreds of lists need.
   */
  built?: boolean;
}

/** `server/dist/build-server.js`, as a URL, whichever of src/ and dist/ this file runs from. */
const BUILT_SERVER = pathToFileURL(join(import.meta.dirname, '../../dist/build-server.js')).href;

/** The real server, listening, in front of its own upstream double. */
export interface TestSite {
  /** Where the site answers, e.g. `http://127.0.0.1:41234`: an API client's base URL. */
  url: string;
  /** The upstream double behind it: make it fail, hang or change its products, count what it was asked. */
  upstream: UpstreamStub;
  /** The pathname of every `/api/…` request the site received, in order (a live array: clear it with `length = 0`). */
  apiRequests: string[];
  /** The listening node:http server (for supertest's `request(server)`). */
  server: Server;
  catalogue: CachedCatalogue;
  metrics: Metrics;
  config: Config;
  /** The clock of the cache and the rate limit: it only moves when the test says so. */
  clock: TestClock;
  /** Every log record the server wrote, parsed. */
  logs: LogRecord[];
  /** The built-looking client the site serves, and a secret file just outside it. */
  staticDir: string;
  secret: string;
  close(): Promise<void>;
}

/**
 * The server exactly as production builds it (buildServer: the response cache in front of the Express app), on
 * 127.0.0.1 and a free port, in front of its own upstream double, with a test clock and a captured log. For the
 * server's integration tests and the client's component tests alike. Every answer it sends is checked against the
 * OpenAPI document, and one the document does not promise fails the test that met it (answer-watch.ts).
 */
export async function startTestSite(options: TestSiteOptions = {}): Promise<TestSite> {
  const upstream = await startUpstreamStub({ ...options.upstream, ...(options.products && { products: options.products }) });
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PRODUCTS_API_URL: options.embeddedDirectory ? '' : upstream.url,
    LOG_LEVEL: 'warn',
    ...options.config,
  });
  const { logger, records } = createCapturingLogger(config.logLevel);
  const clock = createTestClock();
  const statics = createStaticDir();
  if (options.withoutClient) rmSync(join(statics.staticDir, 'index.html'));
  const build = options.built ? ((await import(BUILT_SERVER)) as { buildServer: typeof buildServer }).buildServer : buildServer;
  const built = await build(config, {
    logger,
    now: clock.now,
    staticDir: statics.staticDir,
    connectionLimits: { ...CONNECTION_LIMITS, ...options.connectionLimits },
    ...(options.embeddedDirectory && { embeddedDirectory: options.embeddedDirectory }),
  });
  // Every answer checked against the OpenAPI document; one that breaks it fails the test (answer-watch.ts).
  watchAnswers(built.server, { rateLimited: config.rateLimitPerMinute !== 0, anyOrigin: config.corsOrigins === '*' });
  const apiRequests: string[] = [];
  built.server.prependListener('request', (req: { url?: string }) => {
    const path = (req.url ?? '').split('?')[0]!;
    if (path === '/api' || path.startsWith('/api/')) apiRequests.push(path);
  });
  const url = await built.listen();

  return {
    url,
    upstream,
    apiRequests,
    server: built.server,
    catalogue: built.catalogue,
    metrics: built.metrics,
    config,
    clock,
    logs: records,
    staticDir: statics.staticDir,
    secret: statics.secret,
    async close() {
      await built.catalogue.settled();
      await built.close(0);
      await upstream.close();
      statics.remove();
    },
  };
}
