import type { Router } from 'express';
import type { CacheableRoute } from './response-cache.js';

/**
 * What every slice (products, images, openapi, pages, static, probes) is, made by one function per slice from
 * its dependencies (build-server.ts) and wired the same way: its router mounted by app.ts, its cacheable routes
 * registered with the response cache in front of Express, its `close` called when the server stops.
 */
export interface Slice {
  /**
   * `api`: mounted under `/api`, behind CORS, the long-URL refusal and the rate limit, before the API's JSON 404.
   * `site`: at the root, after `/api`, in the order the slices are listed (the pages, which take every other
   * path, last).
   */
  readonly mount: 'api' | 'site';
  readonly router: Router;
  /**
   * The slice's answers the response cache may send itself (fresh entries), for an `/api` slice what
   * mountCachedRoutes (api-route.ts) returns; none for a slice that has none.
   */
  readonly cacheableRoutes: readonly CacheableRoute<unknown>[];
  /** Releases what the slice holds (caches, timers) once the server has stopped. */
  close(): void;
}
