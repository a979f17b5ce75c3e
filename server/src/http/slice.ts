import type { Router } from 'express';

/**
 * What every slice (products, images, openapi, pages, static, probes) is, made by one function per slice from
 * its dependencies (build-server.ts) and wired the same way: its router mounted by app.ts (its cached routes on
 * it, mounted by the one CachedRouteMount, cached-route.ts), its `close` called when the server stops.
 */
export interface Slice {
  /**
   * `api`: mounted under `/api`, behind CORS, the long-URL refusal and the rate limit, before the API's JSON 404.
   * `site`: at the root, after `/api`, in the order the slices are listed (the pages, which take every other
   * path, last).
   */
  readonly mount: 'api' | 'site';
  readonly router: Router;
  /** Releases what the slice holds (caches, timers) once the server has stopped. */
  close(): void;
}
