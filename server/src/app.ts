import { MESSAGES } from '@catalogue/shared/messages';
import express, { type Express, type Router } from 'express';
import { accessLog } from './http/access-log.js';
import { answerContext } from './http/answer-context.js';
import { answerUnexpectedError } from './http/errors.js';
import { createHealthRouter } from './probes/health-router.js';
import type { ListViews } from './products/list-views.js';
import type { SearchView } from './products/search-view.js';
import { createOpenApiRouter } from './openapi/openapi-router.js';
import { createProductsRouter } from './products/products-slice.js';
import { refuseLongUrls } from './http/uri-too-long.js';
import type { CachedCatalogue } from './catalogue/cached-catalogue.js';
import type { Config } from './config.js';
import type { CorsPolicy } from './http/cors.js';
import type { Logger } from './logger.js';
import type { Metrics } from './http/metrics.js';
import type { ApiRateLimit } from './http/rate-limit.js';
import { httpCachingPolicy } from './http/answer.js';
import { createStaticFiles } from './static/static-files.js';

export interface AppDependencies {
  config: Config;
  catalogue: CachedCatalogue;
  logger: Logger;
  metrics: Metrics;
  /** The built client (`client/dist`): its static files are served from here. */
  staticDir: string;
  /** The server-rendered pages, sitemap and robots.txt (pages/pages.ts), made by buildServer. */
  pages: Router;
  /** The images slice's `/products/:id/image` (images/images-router.ts), mounted under `/api`. */
  images: Router;
  /**
   * The API's rate limit (`null`: off), made by buildServer and shared with the layer in front of the app, so
   * both count against one budget.
   */
  rateLimit: ApiRateLimit | null;
  /** The list's views and the CORS policy, made by buildServer and shared with the layer in front of the app. */
  views: ListViews;
  search: SearchView;
  cors: CorsPolicy;
}

/** The Express application behind the response cache. It never listens: buildServer wires it in. */
export function createApp({
  config,
  catalogue,
  logger,
  metrics,
  staticDir,
  pages,
  images,
  rateLimit,
  views,
  search,
  cors,
}: AppDependencies): Express {
  const app = express();
  app.disable('x-powered-by');
  // Every answer with a validator goes through sendCachedAnswer (a strong ETag per encoding, 304 on If-None-Match);
  // Express's own weak ETag would be a second mechanism on the same routes.
  app.set('etag', false);
  // TRUST_PROXY means one load balancer in front: the address it saw is the client's. Trusting every hop
  // (`true`) would take the left-most X-Forwarded-For entry, which any client can write.
  app.set('trust proxy', config.trustProxy ? 1 : false);

  // The request's id and AnswerContext first: the middleware after it computes into it, and the one writer
  // writes its headers (http/answer-context.ts).
  app.use(answerContext);
  app.use(accessLog(logger));
  app.use(metrics.recordRequests);

  app.use(createHealthRouter(catalogue));
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
  api.use(createProductsRouter({ catalogue, views, search, caching: httpCachingPolicy(config), logger }));
  // After the products router, whose category routes must see `/products/category/image` first.
  api.use(images);
  api.use(createOpenApiRouter());
  api.use((_req, res) => {
    res.status(404).set('Cache-Control', 'no-store').json({ error: MESSAGES.notFound });
  });
  app.use('/api', api);

  app.use(createStaticFiles({ staticDir }));
  app.use(pages);
  // What the pages do not take (other methods on page paths) is not found either.
  app.use((_req, res) => {
    res.status(404).json({ error: MESSAGES.notFound });
  });
  app.use(answerUnexpectedError(logger));
  return app;
}
