import { MESSAGES } from '@catalogue/shared/messages';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { answerUnexpectedError } from './api/errors.js';
import { createHealthRouter } from './api/health-router.js';
import { createProductsRouter } from './api/products-router.js';
import { refuseLongUrls } from './api/uri-too-long.js';
import type { ApiRateLimit } from './api/rate-limit.js';
import type { CachedCatalogue } from './catalogue/cached-catalogue.js';
import type { Config } from './config.js';
import { type Logger, requestIdFor } from './logger.js';
import type { Metrics } from './metrics.js';
import { createSpa } from './web/spa.js';

const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export interface AppDependencies {
  config: Config;
  catalogue: CachedCatalogue;
  logger: Logger;
  metrics: Metrics;
  /** The built client (`client/dist`). */
  staticDir: string;
  /**
   * The API's rate limit (`null`: off), made by buildServer and shared with the layer in front of the app, so
   * both count against one budget.
   */
  rateLimit: ApiRateLimit | null;
}

/** The Express application behind the response cache. It never listens: buildServer wires it in. */
export function createApp({ config, catalogue, logger, metrics, staticDir, rateLimit }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // TRUST_PROXY means one load balancer in front: the address it saw is the client's. Trusting every hop
  // (`true`) would take the left-most X-Forwarded-For entry, which any client can write.
  app.set('trust proxy', config.trustProxy ? 1 : false);

  app.use(
    pinoHttp({
      logger,
      // Probes and scrapes arrive every few seconds and would drown the visitors' requests; /metrics counts them.
      autoLogging: { ignore: (req) => UNLOGGED_PATHS.has(req.url ?? '') },
      genReqId: (req, res) => {
        const id = requestIdFor(req);
        res.setHeader('X-Request-Id', id);
        return id;
      },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customSuccessObject: (_req, res, fields: object) => ({ ...fields, cache: res.getHeader('x-cache') }),
      // For a 5xx pino-http invents an Error just to carry the status; the real cause is logged where it is
      // handled (api/errors.ts), so the access line keeps only the facts.
      customErrorObject: (_req, res, _error, fields: object) => ({ ...fields, err: undefined, cache: res.getHeader('x-cache') }),
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    }),
  );

  app.use(metrics.recordRequests);

  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // styled-components injects <style> elements at runtime, which only 'unsafe-inline' allows.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'"],
          connectSrc: ["'self'"],
          fontSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          // No upgrade-insecure-requests: the site is also served over plain HTTP (localhost, a LAN address).
        },
      },
    }),
  );

  app.use(createHealthRouter(catalogue));
  app.get('/metrics', async (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });

  const api = express.Router();
  api.use(refuseLongUrls);
  if (rateLimit !== null) api.use(rateLimit.middleware);
  api.use(
    createProductsRouter({
      catalogue,
      caching: { staleWhileRevalidateSeconds: config.cacheTtlSeconds, staleIfErrorSeconds: config.staleMaxSeconds },
    }),
  );
  api.use((_req, res) => {
    res.status(404).set('Cache-Control', 'no-store').json({ error: MESSAGES.notFound });
  });
  app.use('/api', api);

  app.use(createSpa({ staticDir, logger }));
  // What the SPA does not take (other methods on page paths) is not found either.
  app.use((_req, res) => {
    res.status(404).json({ error: MESSAGES.notFound });
  });
  app.use(answerUnexpectedError);
  return app;
}
