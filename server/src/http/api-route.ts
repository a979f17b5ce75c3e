import type { IncomingMessage } from 'node:http';
import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import type { Answer, HttpCachingPolicy } from './answer.js';
import { decodePathSegment } from './decode-path-segment.js';
import { allowOnlyGetAndHead } from './method-not-allowed.js';
import type { CacheableRoute } from './response-cache.js';
import { sendCachedAnswer } from './send-answer.js';

/** Where the JSON API is mounted (app.ts): every ApiRoute's path is under it. */
export const API_BASE = '/api';

/** A request a route will not answer: a 400 with this one-line message, before anything reaches the catalogue. */
export interface Refusal {
  error: string;
}

/** What a route reads of a request: its path parameters, decoded as Express decodes them, and its raw query. */
export interface RouteRequest {
  params: Readonly<Record<string, string>>;
  /** What follows `?`, undecoded; '' when there is none. */
  query: string;
}

/**
 * One `/api` route, declared once by its slice: its path under API_BASE in Express's syntax (`/products/:id`), and
 * how it reads a request into what it answers for (`Input`: an id, a query) or refuses it. The declaration
 * feeds the three places that name a route: Express's path (mountApiRoute), the response cache's matcher
 * (cacheableApiRoute, which reads the URL with the same `read`, so a URL it takes is one Express would answer the
 * same way) and the OpenAPI document's path (openApiPath). A cacheable route reaches the first two through
 * CachedApiRoute and mountCachedRoutes below.
 */
export interface ApiRoute<Input> {
  readonly path: string;
  /** Whether `read` looks at the query: the response cache leaves a URL with a query to Express otherwise. */
  readonly readsQuery: boolean;
  read(request: RouteRequest): Input | Refusal;
}

/** A route's declaration, typed by what it reads (`apiRoute<number>({ path: '/products/:id', … })`). */
export function apiRoute<Input>(route: ApiRoute<Input>): ApiRoute<Input> {
  return route;
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/** The route as the metrics name it (`/api/products/:id`): Express's `baseUrl` and route path. */
export function apiPattern(route: ApiRoute<unknown>): string {
  return `${API_BASE}${route.path}`;
}

/** The route's path as the OpenAPI document writes it, relative to its server `/api`: `/products/{id}`. */
export function openApiPath(route: ApiRoute<unknown>): string {
  return route.path.replace(/:(\w+)/g, '{$1}');
}

/** The query string of a request target (`/path?a=1` → `a=1`), undecoded; empty when there is none. */
export function rawQueryOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}

/**
 * Mounts a route on its slice's router (under API_BASE): GET and HEAD read the request (a refusal is the 400) and
 * hand what was read to `handle`; `onError` answers what `handle` throws (the catalogue's failures); any other
 * method is a 405.
 */
export function mountApiRoute<Input>(
  router: Router,
  route: ApiRoute<Input>,
  handle: (input: Input, req: Request, res: Response) => Promise<void> | void,
  onError?: ErrorRequestHandler,
): void {
  const read = async (req: Request, res: Response) => {
    const input = route.read({ params: req.params as Record<string, string>, query: rawQueryOf(req.originalUrl) });
    if (isRefusal(input)) {
      res.status(400).set('Cache-Control', 'no-store').json({ error: input.error });
      return;
    }
    await handle(input, req, res);
  };
  router
    .route(route.path)
    .get(read, ...(onError ? [onError] : []))
    .all(allowOnlyGetAndHead);
}

const NOTHING_ASKED: RouteRequest = Object.freeze({ params: Object.freeze({}), query: '' });

/**
 * The route for the response cache in front of Express: the URL matched exactly against the route's path (any
 * other spelling — a trailing slash, another case — is Express's), its parameters decoded and read as Express's
 * route reads them, and what was read handed to `peek`. A URL the route refuses is left to Express, which says why.
 */
export function cacheableApiRoute<Input>(
  route: ApiRoute<Input>,
  peek: (input: Input, req: IncomingMessage) => Answer | undefined,
): CacheableRoute<Input> {
  const names: string[] = [];
  const source = apiPattern(route)
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\/:(\w+)/g, (_segment, name: string) => {
      names.push(name);
      return '/([^/?]+)';
    });
  const exact = new RegExp(`^${source}(?:\\?(.*))?$`);
  const pattern = apiPattern(route);
  return {
    pattern,
    rateLimited: true,
    match(url) {
      // The path alone, no parameters, no query (`/api/products`, the request answered most): no regex to run.
      if (names.length === 0 && url === pattern) {
        const input = route.read(NOTHING_ASKED);
        return isRefusal(input) ? undefined : input;
      }
      const found = exact.exec(url);
      if (found === null) return undefined;
      const query = found[names.length + 1];
      if (query !== undefined && !route.readsQuery) return undefined;
      const params: Record<string, string> = {};
      for (const [index, name] of names.entries()) {
        const value = decodePathSegment(found[index + 1] ?? '');
        if (value === undefined) return undefined;
        params[name] = value;
      }
      const input = route.read({ params, query: query ?? '' });
      return isRefusal(input) ? undefined : input;
    },
    peek,
  };
}

/**
 * A cacheable `/api` route, declared once by its slice: the route (what it reads of a request) and the two looks at
 * what it answers — `get`, which may wait (a miss or a stale copy asks the catalogue: Express's path), and `peek`,
 * which never does (a fresh, prepared entry or nothing: the response cache's). mountCachedRoutes makes Express's
 * handler and the response cache's entry from this one declaration.
 */
export interface CachedApiRoute<Input> {
  readonly route: ApiRoute<Input>;
  get(input: Input, req: IncomingMessage): Promise<Answer>;
  peek(input: Input, req: IncomingMessage): Answer | undefined;
  /** Answers what `get` throws (the catalogue's failures, failure-answers.ts). */
  readonly failures: ErrorRequestHandler;
}

/** A cacheable route's declaration, typed by what its route reads. */
export function cachedApiRoute<Input>(route: ApiRoute<Input>, reads: Omit<CachedApiRoute<Input>, 'route'>): CachedApiRoute<Input> {
  return { route, ...reads };
}

/**
 * Mounts each route on the slice's router in the order given (Express's order: see the slice's route list), its
 * handler sending what `get` answers by the one rule (sendCachedAnswer), and returns the response cache's entries
 * for the same routes, in the same order: the slice's `cacheableRoutes`.
 */
export function mountCachedRoutes(
  router: Router,
  routes: readonly CachedApiRoute<unknown>[],
  caching: HttpCachingPolicy,
): CacheableRoute<unknown>[] {
  return routes.map((cached) => {
    mountApiRoute(
      router,
      cached.route,
      async (input, req, res) => sendCachedAnswer(req, res, await cached.get(input, req), caching),
      cached.failures,
    );
    return cacheableApiRoute(cached.route, (input, req) => cached.peek(input, req));
  });
}
