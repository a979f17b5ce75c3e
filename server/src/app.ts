import { MESSAGES } from '@catalogue/shared/messages';
import express, { type Express } from 'express';
import { accessLog } from './http/access-log.js';
import { requestContext } from './http/request-context.js';
import { API_BASE } from './http/cached-route.js';
import { answerUnexpectedError } from './http/errors.js';
import { refuseLongUrls } from './http/uri-too-long.js';
import type { Config } from './config.js';
import type { CorsPolicy } from './http/cors.js';
import type { Logger } from './logger.js';
import type { Metrics } from './http/metrics.js';
import type { ApiRateLimit } from './http/rate-limit.js';
import type { Slice } from './http/slice.js';

/** What the app is made of: the HTTP layer's shared parts (made by buildServer, shared with the response cache) and the slices. */
export interface AppDependencies {
  config: Pick<Config, 'trustProxy'>;
  logger: Logger;
  metrics: Metrics;
  /** The API's rate limit (`null`: off): one budget for this app and the response cache in front of it. */
  rateLimit: ApiRateLimit | null;
  /** The CORS policy of `/api`, as the response cache applies it too. */
  cors: CorsPolicy;
  /** In mounting order within each mount point (http/slice.ts). */
  slices: readonly Slice[];
}

/** The Express application behind the response cache. It never listens: buildServer wires it in. */
export function createApp({ config, logger, metrics, rateLimit, cors, slices }: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every answer with a validator goes through sendCachedAnswer (a strong ETag per encoding, 304 on If-None-Match);
  // Express's own weak ETag would be a second mechanism on the same routes.
  app.set('etag', false);
  // TRUST_PROXY means one load balancer in front: the address it saw is the client's. Trusting every hop
  // (`true`) would take the left-most X-Forwarded-For entry, which any client can write.
  app.set('trust proxy', config.trustProxy ? 1 : false);

  // The request's id and RequestContext first: the middleware after it computes into it, and the one writer
  // writes its headers (http/request-context.ts).
  app.use(requestContext);
  app.use(accessLog(logger));
  app.use(metrics.recordRequests);
  app.get('/metrics', async (_req, res) => {
    res
      .set('Cache-Control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics());
  });

  const api = express.Router();
  // First, so that every /api answer carries CORS headers (a 414 and a 429 too), and a preflight is answered
  // before the rate limit counts it.
  api.use(cors.middleware);
  api.use(refuseLongUrls);
  if (rateLimit !== null) api.use(rateLimit.middleware);
  for (const slice of slices) if (slice.mount === 'api') api.use(slice.router);
  api.use((_req, res) => {
    res.status(404).set('Cache-Control', 'no-store').json({ error: MESSAGES.notFound });
  });
  // Before the site's slices: the pages take every path they are given.
  app.use(API_BASE, api);

  for (const slice of slices) if (slice.mount === 'site') app.use(slice.router);
  // What the pages do not take (other methods on page paths) is not found either.
  app.use((_req, res) => {
    res.status(404).json({ error: MESSAGES.notFound });
  });
  app.use(answerUnexpectedError(logger));
  return app;
}
