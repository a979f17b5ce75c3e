import type { IncomingMessage } from 'node:http';
import type { PageRoute } from '@catalogue/shared/page-routes';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { type ErrorRequestHandler, Router } from 'express';
import type { CacheEntry, CachedCatalogue } from '../catalogue/cached-catalogue.js';
import { createDerivedBodyCache } from '../catalogue/derived-body-cache.js';
import type { Config } from '../config.js';
import type { Answer, HttpCachingPolicy } from '../http/answer.js';
import type { CacheStatus } from '../outcomes/cache-status.js';
import { type DeclaredRoute, cachedRouteHandler, cachedSiteRoute, mountCachedRoutes, type UncachedAnswer } from '../http/api-route.js';
import { encodeBody, type EncodedBody } from '../bodies/encoded-body.js';
import type { Slice } from '../http/slice.js';
import type { Logger } from '../logger.js';
import { loadPage } from './page-data.js';
import { pageHead, stateBlock } from './page-head.js';
import { fillTemplate, type PageData, type PageRenderer } from './page-renderer.js';
import { type PageRead, readPage } from './page-route.js';
import { publicOrigin } from './public-origin.js';
import { createSitemapRouter } from './sitemap-router.js';
import { BAD_HOST, RETRY_AFTER_SECONDS } from './text-answer.js';

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

/** The site's pages, declared once each (http/api-route.ts): each reads its URL with readPage (page-route.ts). */
const pageRoute = (path: string, readsQuery: boolean): DeclaredRoute<PageRead> => ({ path, readsQuery, read: ({ url }) => readPage(url) });
/** The pages that answer with the catalogue's data, in the page table's order (shared/src/page-routes.ts). */
const CACHED_PAGES = [
  pageRoute(PAGE_PATHS.home, false),
  pageRoute(PAGE_PATHS.products, true),
  pageRoute(PAGE_PATHS.productDetailsPattern, false),
];
/** Every other path, the not-found page: React Router's `*`, spelt `/{*path}` by Express 5. Rendered, never kept. */
const OTHER_PAGES = pageRoute('/{*path}', true);

/**
 * The server-rendered pages (docs/pages.md), with the sitemap and robots.txt (sitemap-router.ts). Each page is
 * rendered from the catalogue's cached data (page-data.ts). A page that has its data answers 200 as a cached
 * answer, with the catalogue entry's freshness, ETag and encodings prepared once per render: the page cache keeps
 * it by origin and the page's route (PageRead.keptAs) for as long as the catalogue holds the entry it was made
 * from. Error pages answer `no-store`. Each page is one cached route (http/api-route.ts): Express renders with
 * `get`, the response cache in front answers a fresh kept page with `peek`, both after the route's one reading.
 */
export function createPagesSlice({ catalogue, config, caching, renderer, logger, now }: PagesOptions): Slice {
  const cache = createDerivedBodyCache(PAGE_CACHE_MAX_BYTES);
  if (renderer === null) logger.warn('The client is not built: pages answer 503 until `npm run build` has run');

  const get = async ({ url, route, keptAs }: PageRead, req: IncomingMessage): Promise<Answer | UncachedAnswer> => {
    const origin = publicOrigin(req, config);
    if (origin === undefined) return { status: 400, type: 'text', body: BAD_HOST };
    if (renderer === null) return { status: 503, type: 'text', body: NOT_BUILT };
    const { data, status, entry, alsoFrom } = await loadPage(route, catalogue, logger);
    if (entry === undefined) {
      const body = await renderPageHtml(renderer, { url, route, data, origin });
      return { status, type: 'html', body, ...(status === 503 && { retryAfterSeconds: RETRY_AFTER_SECONDS }) };
    }
    // A kept page is rendered for its route's own path, so that what is kept is the same for each spelling it stands for.
    const render = async () => encodeBody(Buffer.from(await renderPageHtml(renderer, { url: keptAs ?? url, route, data, origin }), 'utf8'));
    const rendered = await cache.get(keptKey(origin, keptAs ?? url, alsoFrom), entry.body, render, keptAs !== undefined);
    return htmlAnswer(rendered, staler(entry, alsoFrom));
  };

  /** A fresh page already kept for this origin and route, from the entries the catalogue holds now; never waits. */
  const peek = ({ route, keptAs }: PageRead, req: IncomingMessage): Answer | undefined => {
    const origin = publicOrigin(req, config);
    if (keptAs === undefined || origin === undefined || renderer === null) return undefined;
    // A product's page is made from the product and from the list (its related products, page-data.ts).
    const entry = route.kind === 'product' ? catalogue.peekProduct(route.id) : catalogue.peekList();
    const alsoFrom = route.kind === 'product' ? catalogue.peekList() : undefined;
    if (entry === undefined || (route.kind === 'product' && alsoFrom === undefined)) return undefined;
    const rendered = cache.peek(keptKey(origin, keptAs, alsoFrom), entry.body);
    return rendered && htmlAnswer(rendered, staler(entry, alsoFrom));
  };

  const router = Router();
  router.use(createSitemapRouter({ catalogue, config, now }));
  const cacheableRoutes = mountCachedRoutes(
    router,
    CACHED_PAGES.map((route) => cachedSiteRoute(route, { get, peek })),
    caching,
  );
  const otherPages = cachedRouteHandler(cachedSiteRoute(OTHER_PAGES, { get, peek }), caching);
  router.get(OTHER_PAGES.path, otherPages);
  // A broken escape in a path segment (`/productdetails/%E0%A4%A`) fails Express's decoding before any route runs;
  // the page is still the one the browser would show for that URL (here, Invalid Product ID), read from the URL.
  const undecodable: ErrorRequestHandler = (error, req, res, next) =>
    error instanceof URIError ? otherPages(req, res, next) : next(error);
  router.use(undecodable);

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

/**
 * Numbers each body a page was also made from (PageData's `alsoFrom`, page-data.ts), the first time it is seen: a
 * kept page's key names the one it was rendered with, so the page cache, which compares the main entry's body by
 * identity, keeps it only while the catalogue holds both. Weak, as the page cache's own hold on a body is.
 */
const bodyNumbers = new WeakMap<EncodedBody, number>();
let lastBodyNumber = 0;

function keptKey(origin: string, path: string, alsoFrom: CacheEntry<unknown> | undefined): string {
  if (alsoFrom === undefined) return `${origin} ${path}`;
  let number = bodyNumbers.get(alsoFrom.body);
  if (number === undefined) bodyNumbers.set(alsoFrom.body, (number = ++lastBodyNumber));
  return `${origin} ${path} ${number}`;
}

const STALENESS: readonly CacheStatus[] = ['HIT', 'MISS', 'STALE'];

/** The freshness of a page made from two entries: the older age, the shorter freshness, the staler status. */
function staler(entry: CacheEntry<unknown>, other: CacheEntry<unknown> | undefined): CacheEntry<unknown> {
  if (other === undefined) return entry;
  return {
    ...entry,
    cacheStatus: STALENESS[Math.max(STALENESS.indexOf(entry.cacheStatus), STALENESS.indexOf(other.cacheStatus))] ?? entry.cacheStatus,
    ageSeconds: Math.max(entry.ageSeconds, other.ageSeconds),
    freshForSeconds: Math.min(entry.freshForSeconds, other.freshForSeconds),
  };
}

/** A rendered page as a cached answer: its bytes, with the freshness of the catalogue entry it was rendered from. */
function htmlAnswer(page: EncodedBody, { cacheStatus, ageSeconds, freshForSeconds }: CacheEntry<unknown>): Answer {
  return { body: page, contentType: HTML_CONTENT_TYPE, cacheStatus, ageSeconds, freshForSeconds };
}
