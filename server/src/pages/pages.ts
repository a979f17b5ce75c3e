import type { IncomingMessage } from 'node:http';
import { pageCount, type ProductsQuery } from '@catalogue/shared/product-paging';
import { PAGE_ROUTES, type PageRoute, resolvePage } from '@catalogue/shared/page-routes';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { type ErrorRequestHandler, type Request, type RequestHandler, type Response, Router } from 'express';
import { sendCachedAnswer } from '../http/send-answer.js';
import type { CacheEntry, CachedCatalogue, ProductsPageContent } from '../catalogue/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/derived-body-cache.js';
import { encodeBody, type EncodedBody } from '../http/encoded-body.js';
import { ProductNotFoundError, UpstreamError } from '../catalogue/product-source.js';
import { toPublicProduct } from '../catalogue/public-product.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Answer, HttpCachingPolicy } from '../http/answer.js';
import type { CacheableRoute } from '../http/response-cache.js';
import type { Slice } from '../http/slice.js';
import { pageHead, stateBlock } from './page-head.js';
import { fillTemplate, type PageData, type PageRenderer } from './page-renderer.js';
import { cacheablePageRoute, isCacheablePageUrl } from './page-route.js';
import { publicOrigin } from './public-origin.js';
import { robotsTxt } from '../catalogue/sitemap.js';

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
/**
 * When a page could not get its data (503), how soon to come back: the catalogue asks its source again on the
 * next request, and the app in the browser retries within about that long.
 */
const RETRY_AFTER_SECONDS = 30;
const NOT_BUILT = 'The site is not built yet: run `npm run build`, then restart the server.\n';
const BAD_HOST = 'Bad Request: the Host header does not name this site\n';

/** A URL the page cache may answer, and its route. */
interface CacheablePageUrl {
  url: string;
  route: PageRoute;
}

/** A page's data, the status it answers with, and the catalogue entry behind a page that may be cached. */
interface LoadedPage {
  data: PageData;
  status: 200 | 400 | 404 | 503;
  source?: CacheEntry<unknown>;
}

/**
 * The server-rendered pages (docs/pages.md). Each page is rendered from the catalogue's cached data: `/` and
 * `/products` from the list (404 for a category it does not hold), `/productdetails/{id}` from that product,
 * nothing for an invalid id (400, no upstream request) or an unknown path (404). A page that has its data answers
 * 200 as a cached answer, with the catalogue entry's freshness, ETag and encodings prepared once per render; error
 * pages answer `no-store`.
 */
export function createPages({ catalogue, config, caching, renderer, logger, now }: PagesOptions): Slice {
  const cache = createDerivedBodyCache(PAGE_CACHE_MAX_BYTES);
  // The routes the response cache's look resolved for requests it then left to Express (a page not rendered yet, or
  // stale), so that the page handler does not resolve them again: every page request is resolved once.
  const resolvedInResponseCache = new WeakMap<IncomingMessage, PageRoute>();
  if (renderer === null) logger.warn('The client is not built: pages answer 503 until `npm run build` has run');

  async function load(route: PageRoute): Promise<LoadedPage> {
    try {
      switch (route.kind) {
        case 'home':
        case 'products': {
          const answer = await catalogue.listProducts();
          const query: ProductsQuery =
            route.kind === 'home'
              ? { search: '', category: '', sort: 'none', page: 1 }
              : { search: route.query, category: route.category, sort: route.sort, page: route.page };
          const content = await answer.value.productsPage(query);
          const data = productsPageData(content);
          // A category the catalogue does not hold shows the list with no products (docs/product.md, "Products"),
          // and so does a page past the last; both answer 404 and are not kept, so stale or made-up links are
          // neither indexed nor cached.
          if (route.kind === 'products' && (!content.holdsCategory || route.page > pageCount(content.page.total))) {
            return { data, status: 404 };
          }
          return { data, status: 200, source: answer };
        }
        case 'product': {
          const answer = await catalogue.getProduct(route.id);
          return { data: { product: toPublicProduct(answer.value) }, status: 200, source: answer };
        }
        case 'invalid-id':
          return { data: {}, status: 400 };
        case 'not-found':
          return { data: {}, status: 404 };
      }
    } catch (error) {
      const product = route.kind === 'product';
      if (product && error instanceof ProductNotFoundError) return { data: { product: 'not-found' }, status: 404 };
      if (!(error instanceof UpstreamError)) throw error;
      logger.warn({ err: error, page: route.kind }, 'The product source failed; the page shows its error');
      return { data: product ? { product: 'error' } : { products: 'error', productsPage: 'error' }, status: 503 };
    }
  }

  const page: RequestHandler = async (req, res) => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return sendText(res, 400, BAD_HOST);
    if (renderer === null) return sendText(res, 503, NOT_BUILT);
    const url = req.originalUrl;
    const route = resolvedInResponseCache.get(req) ?? resolvePage(url);
    const { data, status, source } = await load(route);
    if (source === undefined) {
      const html = await renderPageHtml(renderer, { url, route, data, origin });
      res.status(status).set('Cache-Control', 'no-store');
      if (status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      res.type('html').send(html);
      return;
    }
    const rendered = await cache.get(
      origin + url,
      source.body,
      async () => encodeBody(Buffer.from(await renderPageHtml(renderer, { url, route, data, origin }), 'utf8')),
      isCacheablePageUrl(url, route),
    );
    sendCachedAnswer(req, res, htmlAnswer(rendered, source), caching);
  };

  const sitemap: RequestHandler = async (req, res) => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return sendText(res, 400, BAD_HOST);
    const answer = await listOrUnavailable(res);
    if (answer === undefined) return;
    const pageNumber = req.params.page;
    // Made where the list is held (catalogue-list.ts): 200,000 products' URLs are megabytes of XML.
    const xml = await answer.value.sitemap(
      origin,
      new Date(now() - answer.ageSeconds * 1000),
      pageNumber === undefined ? null : Number(pageNumber),
    );
    if (xml === undefined) return sendText(res, 404, 'Not found\n');
    res.status(200).set('Cache-Control', `public, max-age=${answer.freshForSeconds}`).type('application/xml; charset=utf-8').send(xml);
  };

  async function listOrUnavailable(res: Response) {
    try {
      return await catalogue.listProducts();
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      sendText(res.set('Retry-After', String(RETRY_AFTER_SECONDS)), 503, 'The product catalogue is unavailable right now\n');
      return undefined;
    }
  }

  const router = Router();
  router.get('/robots.txt', (req: Request, res) => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return sendText(res, 400, BAD_HOST);
    res.status(200).set('Cache-Control', 'public, max-age=86400').type('text/plain').send(robotsTxt(origin));
  });
  router.get('/sitemap.xml', sitemap);
  router.get('/sitemap-:page.xml', sitemap);
  // One handler for every path (resolvePage decides the page); registered by the table's patterns so the metrics name
  // pages. Express 5 spells React Router's `*` as `/{*path}`.
  for (const { path } of PAGE_ROUTES) router.get(path === '*' ? '/{*path}' : path, page);
  // A broken escape in a path segment (`/productdetails/%E0%A4%A`) fails Express's decoding before any route runs;
  // the page is still the one the browser would show for that URL (here, Invalid Product ID).
  const undecodable: ErrorRequestHandler = (error, req, res, next) => (error instanceof URIError ? page(req, res, next) : next(error));
  router.use(undecodable);

  // The router takes every other path: the site's slices mount it last.
  return { mount: 'site', router, cacheableRoutes: cacheablePageRoutes(), close: () => undefined };

  /**
   * The three pages that answer with data, for the response cache in front of Express: fresh pages are sent there.
   * match resolves the URL (one route at most does, cacheablePageRoute) and hands peek the route.
   */
  function cacheablePageRoutes(): CacheableRoute<CacheablePageUrl>[] {
    const peek = ({ url, route }: CacheablePageUrl, req: IncomingMessage): Answer | undefined => {
      resolvedInResponseCache.set(req, route);
      const origin = publicOrigin(req, config);
      if (origin === undefined || renderer === null) return undefined;
      const source = route.kind === 'product' ? catalogue.peekProduct(route.id) : catalogue.peekList();
      const rendered = source && cache.peek(origin + url, source.body);
      return rendered && htmlAnswer(rendered, source);
    };
    return (
      [
        [PAGE_PATHS.home, 'home'],
        [PAGE_PATHS.products, 'products'],
        [PAGE_PATHS.productDetailsPattern, 'product'],
      ] as const
    ).map(([pattern, page]) => ({
      pattern,
      rateLimited: false,
      match: (url) => {
        const route = cacheablePageRoute(url, page);
        return route && { url, route };
      },
      peek,
    }));
  }
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

/**
 * What `/` and `/products` render with: the page of products the query selects (one page, whatever the
 * catalogue's size) and the categories; the whole list too while it is small enough to travel, so the browser
 * filters it as the visitor types (docs/product.md, "Products").
 */
function productsPageData({ page, categories, products }: ProductsPageContent): PageData {
  const productsPage = { page, categories };
  return products === undefined ? { productsPage } : { productsPage, products };
}

/** A rendered page as a cached answer: its bytes, with the freshness of the catalogue entry it was rendered from. */
function htmlAnswer(page: EncodedBody, { cacheStatus, ageSeconds, freshForSeconds }: CacheEntry<unknown>): Answer {
  return { body: page, contentType: HTML_CONTENT_TYPE, cacheStatus, ageSeconds, freshForSeconds };
}

function sendText(res: Response, status: number, text: string): void {
  res.status(status).set('Cache-Control', 'no-store').type('text/plain').send(text);
}
