import { type RequestHandler, Router } from 'express';
import type { CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import { UpstreamError } from '../catalogue/sources/product-source.js';
import type { Config } from '../config.js';
import { publicOrigin } from './public-origin.js';
import { robotsTxt } from '../catalogue/list/sitemap.js';
import { BAD_HOST, RETRY_AFTER_SECONDS, sendText } from './text-answer.js';

export interface SitemapRouterOptions {
  catalogue: CachedCatalogue;
  config: Pick<Config, 'publicUrl' | 'trustProxy'>;
  /** Milliseconds since the epoch, for the sitemap's `lastmod`. */
  now: () => number;
}

/** `/robots.txt`, `/sitemap.xml` and its numbered files (made by catalogue/list/sitemap.ts where the list is held), for the request's public origin. */
export function createSitemapRouter({ catalogue, config, now }: SitemapRouterOptions): Router {
  const sitemap: RequestHandler = async (req, res) => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return sendText(res, 400, BAD_HOST);
    const pageNumber = req.params.page;
    let made: { xml: Buffer | undefined; freshForSeconds: number };
    try {
      // Made where the list is held (catalogue-list.ts): 200,000 products' URLs are megabytes of XML.
      made = await catalogue.withList(async (entry) => ({
        xml: await entry.value.sitemap(
          origin,
          new Date(now() - entry.ageSeconds * 1000),
          pageNumber === undefined ? null : Number(pageNumber),
        ),
        freshForSeconds: entry.freshForSeconds,
      }));
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      return sendText(res.set('Retry-After', String(RETRY_AFTER_SECONDS)), 503, 'The product catalogue is unavailable right now\n');
    }
    if (made.xml === undefined) return sendText(res, 404, 'Not found\n');
    res.status(200).set('Cache-Control', `public, max-age=${made.freshForSeconds}`).type('application/xml; charset=utf-8').send(made.xml);
  };

  const router = Router();
  router.get('/robots.txt', (req, res) => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return sendText(res, 400, BAD_HOST);
    res.status(200).set('Cache-Control', 'public, max-age=86400').type('text/plain').send(robotsTxt(origin));
  });
  router.get('/sitemap.xml', sitemap);
  router.get('/sitemap-:page.xml', sitemap);
  return router;
}
