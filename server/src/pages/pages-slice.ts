import type { IncomingMessage } from 'node:http';
import type { PageRoute } from '@catalogue/shared/page-routes';
import { PAGE_PATHS } from '@catalogue/shared/routes';
import { type ErrorRequestHandler, Router } from 'express';
import type { CacheEntry, CachedCatalogue } from '../catalogue/caches/cached-catalogue.js';
import { createDerivedBodyCache, type DerivedBodyCache } from '../catalogue/caches/derived-body-cache.js';
import type { Config } from '../config.js';
import type { Answer } from '../http/answer.js';
import type { CacheStatus } from '../outcomes/cache-status.js';
import type { CachedRoute, CachedRouteMount, UncachedAnswer } from '../http/cached-route.js';
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
  mountCached: CachedRouteMount;
  /** The built client's renderer; `null` when the client is not built (pages answer 503). */
  renderer: PageRenderer | null;
  logger: Logger;
  /** Milliseconds since the epoch, for the sitemap's `lastmod`. */
  now: () => number;
}

/** What a page is made from: the catalogue's data, the renderer, and the pages already rendered. */
interface PagesParts extends Pick<PagesOptions, 'catalogue' | 'config' | 'renderer' | 'logger'> {
  pageCache: DerivedBodyCache;
}

const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
/**
 * The memory budget of rendered pages (catalogue/caches/derived-body-cache.ts). A page holds one page of products
 * (shared/src/product-paging.ts) whatever the catalogue's size: about 20 KB with its encodings at the default
 * catalogue, some 90 KB at 50,000 products (the list's state and its category menu).
 */
const PAGE_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const NOT_BUILT = 'The site is not built yet: run `npm run build`, then restart the server.\n';

/**
 * A page, one cached route (http/cached-route.ts) at the root: its URL read with readPage (page-route.ts), its
 * answer rendered from the catalogue's data (page-data.ts), and, since absolute URLs on it name the site's origin
 * (public-origin.ts), kept by the response cache once per origin.
 */
const pageRoute = (path: string): CachedRoute<PageRead, PagesParts> => ({
  path,
  scope: 'site',
  read: ({ url }) => readPage(url),
  answer: answerPage,
  variesBy: (req, { config }) => publicOrigin(req, config) ?? '',
});
/** The pages that answer with the catalogue's data, in the page table's order (shared/src/page-routes.ts). */
const CACHED_PAGES = [pageRoute(PAGE_PATHS.home), pageRoute(PAGE_PATHS.products), pageRoute(PAGE_PATHS.productDetailsPattern)];
/** Every other path, the not-found page: React Router's `*`, spelt `/{*path}` by Express 5. Rendered, never kept. */
const OTHER_PAGES = pageRoute('/{*path}');

/**
 * The server-rendered pages (docs/pages.md), with the sitemap and robots.txt (sitemap-router.ts). A page that has
 * its data answers 200 as a cached answer, with the catalogue entries' freshness, ETag and encodings prepared once
 * per render: the page cache keeps it by origin and the page's route (PageRead.cachedAs) for as long as the catalogue
 * holds the entries it was made from. Error pages answer `no-store`.
 */
export function createPagesSlice({ catalogue, config, mountCached, renderer, logger, now }: PagesOptions): Slice {
  if (renderer === null) logger.warn('The client is not built: pages answer 503 until `npm run build` has run');
  const router = Router();
  router.use(createSitemapRouter({ catalogue, config, now }));
  const parts: PagesParts = { catalogue, config, renderer, logger, pageCache: createDerivedBodyCache(PAGE_CACHE_MAX_BYTES) };
  const [otherPages] = mountCached(router, [...CACHED_PAGES, OTHER_PAGES], parts).slice(-1);
  // A broken escape in a path segment (`/productdetails/%E0%A4%A`) fails Express's decoding before any route runs;
  // the page is still the one the browser would show for that URL (here, Invalid Product ID), read from the URL.
  const undecodable: ErrorRequestHandler = (error, req, res, next) =>
    error instanceof URIError ? otherPages!(req, res, next) : next(error);
  router.use(undecodable);

  // The router takes every other path: the site's slices mount it last.
  return { mount: 'site', router, close: () => undefined };
}

async function answerPage(
  { url, route, cachedAs }: PageRead,
  { catalogue, config, renderer, logger, pageCache }: PagesParts,
  req: IncomingMessage,
): Promise<Answer | UncachedAnswer> {
  const origin = publicOrigin(req, config);
  if (origin === undefined) return { status: 400, type: 'text', body: BAD_HOST };
  if (renderer === null) return { status: 503, type: 'text', body: NOT_BUILT };
  const { data, status, entry, alsoFrom } = await loadPage(route, catalogue, logger);
  if (entry === undefined) {
    const body = await renderPageHtml(renderer, { url, route, data, origin });
    return { status, type: 'html', body, ...(status === 503 && { retryAfterSeconds: RETRY_AFTER_SECONDS }) };
  }
  // A cached page is rendered for its route’s own path, so that what is cached is the same for each spelling it stands for.
  const render = async () => encodeBody(Buffer.from(await renderPageHtml(renderer, { url: cachedAs ?? url, route, data, origin }), 'utf8'));
  const rendered = await pageCache.get(pageCacheKey(origin, cachedAs ?? url, alsoFrom), entry.body, render, cachedAs !== undefined);
  return htmlAnswer(rendered, staler(entry, alsoFrom), cachedAs !== undefined);
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
 * cached page’s key names the one it was rendered with, so the page cache, which compares the main entry's body by
 * identity, keeps it only while the catalogue holds both. Weak, as the page cache's own hold on a body is.
 */
const bodyNumbers = new WeakMap<EncodedBody, number>();
let lastBodyNumber = 0;

function pageCacheKey(origin: string, path: string, alsoFrom: CacheEntry<unknown> | undefined): string {
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
    storedAt: Math.min(entry.storedAt, other.storedAt),
    freshUntil: Math.min(entry.freshUntil, other.freshUntil),
  };
}

/**
 * A rendered page as a cached answer: its bytes, with the freshness of the catalogue entries it was rendered from;
 * one the response cache may keep when the page cache keeps it too (a page's own route, not a search's).
 */
function htmlAnswer(
  page: EncodedBody,
  { cacheStatus, ageSeconds, freshForSeconds, storedAt, freshUntil }: CacheEntry<unknown>,
  keep: boolean,
): Answer {
  return {
    body: page,
    contentType: HTML_CONTENT_TYPE,
    cacheStatus,
    ageSeconds,
    freshForSeconds,
    ...(keep && { freshness: { storedAt, freshUntil } }),
  };
}
