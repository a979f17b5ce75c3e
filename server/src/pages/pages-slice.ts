import type { IncomingMessage } from 'node:http';
import { PAGE_ROUTES, type PageRoute, resolvePage } from '@catalogue/shared/page-routes';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { type ErrorRequestHandler, type RequestHandler, Router } from 'express';
import type { CacheEntry, CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/derived-body-cache.js';
import type { Config } from '../config.js';
import type { Answer, HttpCachingPolicy } from '../http/answer.js';
import { encodeBody, type EncodedBody } from '../http/encoded-body.js';
import type { CacheableRoute } from '../http/response-cache.js';
import { sendCachedAnswer } from '../http/send-answer.js';
import type { Slice } from '../http/slice.js';
import type { Logger } from '../logger.js';
import { loadPage } from './page-data.js';
import { pageHead, stateBlock } from './page-head.js';
import { fillTemplate, type PageData, type PageRenderer } from './page-renderer.js';
import { cacheablePageEntry, isCacheablePageUrl, type PageEntryKey } from './page-route.js';
import { publicOrigin } from './public-origin.js';
import { createSitemapRouter } from './sitemap-router.js';
import { BAD_HOST, RETRY_AFTER_SECONDS, sendText } from './text-answer.js';

export interface PagesOptions {
  catalogue: CachedCatalogue;
  config: Pick<Config, 'publicUrl' | 'trustProxy'>;
  caching: HttpCachingPolicy;
  /** The built client's renderer; `null` when the client is not built (pages answer 503). */
  renderer: PageRenderer | null;
  logger: Logger;
  /** Milliseconds since the epoch, for the sitemap's `lastmod`. */
  now: () => number;
}

const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
/**
 * The memory budget of rendered pages (catalogue/derived-body-cache.ts). A page holds one page of products
 * (shared/src/product-paging.ts) whatever the catalogue's size: about 20 KB with its encodings at the default
 * catalogue, some 90 KB at 50,000 products (the list's state and its category menu).
 */
const PAGE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const NOT_BUILT = 'The site is not built yet: run `npm run build`, then restart the server.\n';

/**
 * The server-rendered pages (docs/pages.md), with the sitemap and robots.txt (sitemap-router.ts). Each page is
 * rendered from the catalogue's cached data (page-data.ts). A page that has its data answers 200 as a cached
 * answer, with the catalogue entry's freshness, ETag and encodings prepared once per render (the page cache,
 * keyed by the entry's body); error pages answer `no-store`. Fresh pages in the site's own spellings are answered
 * by the response cache in front of Express, which looks them up without resolving the page.
 */
export function createPagesSlice({ catalogue, config, caching, renderer, logger, now }: PagesOptions): Slice {
  const cache = createDerivedBodyCache(PAGE_CACHE_MAX_BYTES);
  if (renderer === null) logger.warn('The client is not built: pages answer 503 until `npm run build` has run');

  const page: RequestHandler = async (req, res) => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return sendText(res, 400, BAD_HOST);
    if (renderer === null) return sendText(res, 503, NOT_BUILT);
    const url = req.originalUrl;
    const route = resolvePage(url);
    const { data, status, entry } = await loadPage(route, catalogue, logger);
    if (entry === undefined) {
      const html = await renderPageHtml(renderer, { url, route, data, origin });
      res.status(status).set('Cache-Control', 'no-store');
      if (status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      res.type('html').send(html);
      return;
    }
    const rendered = await cache.get(
      origin + url,
      entry.body,
      async () => encodeBody(Buffer.from(await renderPageHtml(renderer, { url, route, data, origin }), 'utf8')),
      isCacheablePageUrl(url, route),
    );
    sendCachedAnswer(req, res, htmlAnswer(rendered, entry), caching);
  };

  const router = Router();
  router.use(createSitemapRouter({ catalogue, config, now }));
  // One handler for every path (resolvePage decides the page); registered by the table's patterns so the metrics name
  // pages. Express 5 spells React Router's `*` as `/{*path}`.
  for (const { path } of PAGE_ROUTES) router.get(path === '*' ? '/{*path}' : path, page);
  // A broken escape in a path segment (`/productdetails/%E0%A4%A`) fails Express's decoding before any route runs;
  // the page is still the one the browser would show for that URL (here, Invalid Product ID).
  const undecodable: ErrorRequestHandler = (error, req, res, next) => (error instanceof URIError ? page(req, res, next) : next(error));
  router.use(undecodable);

  /** A fresh page already rendered for this origin and URL from the entry `key` names; never waits. */
  const peek = (url: string, key: PageEntryKey, req: IncomingMessage): Answer | undefined => {
    const origin = publicOrigin(req, config);
    if (origin === undefined || renderer === null) return undefined;
    const entry = key.entry === 'product' ? catalogue.peekProduct(key.id) : catalogue.peekList();
    const rendered = entry && cache.peek(origin + url, entry.body);
    return rendered && htmlAnswer(rendered, entry);
  };
  // The three pages that answer with data, for the response cache. `match` reads the URL's spelling alone
  // (page-route.ts) and names the entry the page is made from; the page itself is resolved only by Express.
  const cacheableRoutes = (
    [
      [PAGE_PATHS.home, 'home'],
      [PAGE_PATHS.products, 'products'],
      [PAGE_PATHS.productDetailsPattern, 'product'],
    ] as const
  ).map(([pattern, kind]): CacheableRoute<{ url: string; key: PageEntryKey }> => ({
    pattern,
    rateLimited: false,
    match: (url) => {
      const key = cacheablePageEntry(url, kind);
      return key && { url, key };
    },
    peek: ({ url, key }, req) => peek(url, key, req),
  }));

  // The router takes every other path: the site's slices mount it last.
  return { mount: 'site', router, cacheableRoutes, close: () => undefined };
}

/**
 * A page's whole HTML: the template with the page's head, the renderer's markup in `#root` and its state block.
 * What a cold render costs (scripts/bench/pages.mjs measures this very function).
 */
export async function renderPageHtml(
  renderer: PageRenderer,
  { url, route, data, origin }: { url: string; route: PageRoute; data: PageData; origin: string },
): Promise<string> {
  const { html, styles, state, preloads } = await renderer.render({ url, route, data });
  const head = pageHead({ route, data, origin, styles, preloads });
  return fillTemplate(renderer.template, { head, html, bodyEnd: stateBlock(state) });
}

/** A rendered page as a cached answer: its bytes, with the freshness of the catalogue entry it was rendered from. */
function htmlAnswer(page: EncodedBody, { cacheStatus, ageSeconds, freshForSeconds }: CacheEntry<unknown>): Answer {
  return { body: page, contentType: HTML_CONTENT_TYPE, cacheStatus, ageSeconds, freshForSeconds };
}
